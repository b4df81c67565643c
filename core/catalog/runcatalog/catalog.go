package runcatalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/httpengine"
)

// Timeout bounds a foreground refresh ([Catalog.Refresh]).
const Timeout = 30 * time.Second

// Options configure [Open].
type Options struct {
	// URL is the catalog-refresh URL; "" turns refresh off (the catalog
	// is the bundled one with Layers, and no cache is read).
	URL string
	// DataDir is Smith's data directory; the cache lives in
	// DataDir/catalog-refresh.
	DataDir string
	// Layers are the layers above the bundle, such as the user's
	// model-info blocks (evidence "config").
	Layers []catalog.Layer
	// Warn receives a one-line notice when the cache is unreadable and is
	// ignored; nil discards it.
	Warn func(string)
	// Engine makes the HTTP engine on a refresh's first request; nil means
	// httpengine's defaults with the body bounded to 8 MiB.
	Engine func() (*httpengine.Engine, error)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Catalog is the model catalog of one run: the bundle, the configured
// layers and, when refresh is on, the newest cached refresh. Its
// [Catalog.Snapshot] is fixed when it is opened; refreshes publish to the
// cache, for the next run. A Catalog is safe for concurrent use.
type Catalog struct {
	url     string // as configured
	shown   string // user information redacted
	cache   *Cache
	store   *catalog.Store
	fetch   catalog.Fetch
	opened  *catalog.Snapshot
	entry   *Entry    // the restored refresh; nil when none
	fetched time.Time // of the restored refresh; zero when none
	now     func() time.Time
}

// Open returns the catalog of a run. It does no network I/O: with refresh
// on it reads the newest cached refresh (an unreadable or invalid one is
// ignored with a notice to o.Warn).
func Open(o Options) (*Catalog, error) {
	bundled, err := catalog.BundledDocument()
	if err != nil {
		return nil, err
	}
	if o.URL == "" {
		st := catalog.NewStore(bundled, o.Layers...)
		return &Catalog{store: st, opened: st.Snapshot()}, nil
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Engine == nil {
		o.Engine = sync.OnceValues(newEngine)
	}
	c := &Catalog{url: o.URL, shown: config.RedactURL(o.URL), cache: NewCache(o.DataDir, o.URL, o.Now), now: o.Now}
	c.fetch = fetcher(o.Engine, o.URL)
	c.store = catalog.NewPersistentStore(bundled, c.cache, o.Layers...)
	warn := func(err error) {
		if o.Warn != nil {
			o.Warn(oneLine(err))
		}
	}
	e, err := c.cache.Load()
	if err != nil {
		warn(err)
	} else if e != nil {
		if err := c.store.Restore(c.shown+" (cached)", e.Ticket, e.Document); err != nil {
			warn(fmt.Errorf("runcatalog: ignored the cached catalog in %s: %w; the next refresh replaces it", c.cache.Dir(), err))
		} else {
			c.entry, c.fetched = e, e.Fetched
		}
	}
	c.opened = c.store.Snapshot()
	return c, nil
}

// Enabled reports whether refresh is on.
func (c *Catalog) Enabled() bool { return c.url != "" }

// URL returns the refresh URL with any user information redacted; "" when
// refresh is off.
func (c *Catalog) URL() string { return c.shown }

// Snapshot returns the catalog as opened.
func (c *Catalog) Snapshot() *catalog.Snapshot { return c.opened }

// Provenance says where the entry m of [Catalog.Snapshot] came from:
// "bundled", "refreshed DATE from URL", "config FILE:LINE:COL", "provider
// SOURCE" or "inferred from SOURCE".
func (c *Catalog) Provenance(m catalog.Model) string {
	return provenance(m, c.fetched, c.shown)
}

func provenance(m catalog.Model, fetched time.Time, url string) string {
	switch m.Evidence {
	case catalog.EvidenceBundled:
		return "bundled"
	case catalog.EvidenceRefreshed:
		return "refreshed " + fetched.UTC().Format(time.DateOnly) + " from " + url
	case catalog.EvidenceConfig:
		return "config " + m.Provenance.Source
	case catalog.EvidenceInferred:
		return "inferred from " + m.Provenance.Source
	}
	return string(m.Evidence) + " " + m.Provenance.Source
}

// Refresh fetches the catalog document now, within [Timeout] (or ctx),
// validates and caches it, and reports what it changed relative to the
// newest cached catalog. A failure, an invalid document or a stale result
// (an error wrapping [catalog.ErrStale]) leaves the cache as it was.
func (c *Catalog) Refresh(ctx context.Context) (*Report, error) {
	if !c.Enabled() {
		return nil, errors.New("runcatalog: no catalog URL is configured; set catalog-refresh \"https://…\" in smith.kdl, SMITH_CATALOG_REFRESH or --catalog-refresh URL")
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	res, err := c.store.Refresh(ctx, c.shown, c.fetch)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("%w (no complete answer within %s; check that the server is up, or try again)", err, Timeout)
		}
		return nil, err
	}
	return report(c.shown, c.now(), res), nil
}

// Background is a background refresh started by [Catalog.Start].
type Background struct {
	shown  string
	cancel context.CancelFunc
	done   chan struct{}
	err    error // set before done is closed
	notice string
}

// Start starts a background refresh when one is due (see [Cache.Due]) and
// returns at once; the refresh publishes to the cache, for the next run.
// Call [Background.Stop] when the command ends.
func (c *Catalog) Start(ctx context.Context) *Background {
	b := &Background{shown: c.shown, cancel: func() {}, done: make(chan struct{})}
	if !c.Enabled() || !c.cache.Due(c.entry) {
		close(b.done)
		return b
	}
	if err := c.cache.MarkAttempt(); err != nil {
		b.notice = fmt.Sprintf("catalog refresh from %s not started: %s", c.shown, oneLine(err))
		close(b.done)
		return b
	}
	ctx, b.cancel = context.WithCancel(ctx)
	go func() {
		defer close(b.done)
		_, b.err = c.store.Refresh(ctx, c.shown, c.fetch)
	}()
	return b
}

// Done is closed when the refresh has ended (at once when none was due).
func (b *Background) Done() <-chan struct{} { return b.done }

// Stop abandons the refresh if it is still running, without waiting for
// it, and returns a one-line notice if it failed ("" otherwise): a refresh
// that published, was abandoned, or was stale (another process cached a
// newer one) says nothing.
func (b *Background) Stop() string {
	b.cancel()
	select {
	case <-b.done:
	default:
		return ""
	}
	switch {
	case b.notice != "":
		return b.notice
	case b.err != nil && !errors.Is(b.err, catalog.ErrStale) && !errors.Is(b.err, context.Canceled):
		return oneLine(b.err)
	}
	return ""
}

// oneLine returns err's message on one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
