package runcatalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/config"
)

const (
	// Interval is how old the cached refresh may grow before a background
	// refresh is due.
	Interval = 24 * time.Hour
	// RetryAfter is how long a background refresh waits after an attempt
	// (failed, or abandoned when its command ended first) before trying
	// again, so an unreachable URL costs one attempt an hour.
	RetryAfter = time.Hour
	// maxEntry bounds a cache file: a catalog document of at most 8 MiB
	// and its envelope.
	maxEntry = 9 << 20
	// entryPrefix and entrySuffix frame a cache file's name around its
	// ticket, written as 20 decimal digits so names sort by ticket.
	entryPrefix, entrySuffix = "refresh-", ".json"
	attemptFile              = "attempt"
	tempPattern              = ".refresh-*.tmp"
)

// Cache is the on-disk cache of the documents refreshed from one URL: a
// directory under Smith's data directory with one file per committed
// refresh, named by the refresh's ticket. The file with the largest ticket
// is the cache's content. Each file is written whole to a temporary file
// and renamed into place, so a reader never sees part of one, and no lock
// is needed: a refresh committed under a smaller ticket never displaces a
// larger one. A Cache is a [catalog.Persist]; it is safe for concurrent
// use by goroutines and processes.
type Cache struct {
	dir string
	url string // redacted, for messages and entries
	now func() time.Time
}

// NewCache returns the cache of the documents refreshed from url, in
// dataDir/catalog-refresh/KEY (KEY derives from the URL, so changing the
// URL starts an empty cache). now is the clock; nil means time.Now.
func NewCache(dataDir, url string, now func() time.Time) *Cache {
	if now == nil {
		now = time.Now
	}
	sum := sha256.Sum256([]byte(url))
	return &Cache{dir: filepath.Join(dataDir, "catalog-refresh", hex.EncodeToString(sum[:8])), url: config.RedactURL(url), now: now}
}

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// Entry is one cached refresh.
type Entry struct {
	// Format is the cache file's format; only 1 exists.
	Format int `json:"format"`
	// URL is where the document came from (user information redacted).
	URL string `json:"url"`
	// Fetched is when the refresh was committed.
	Fetched time.Time `json:"fetched"`
	// Ticket orders the refresh among all others by its start.
	Ticket uint64 `json:"ticket"`
	// Generated is the document's date.
	Generated string `json:"generated"`
	// Document is the catalog document as fetched (validated).
	Document json.RawMessage `json:"document"`
}

func entryName(ticket uint64) string {
	return fmt.Sprintf("%s%020d%s", entryPrefix, ticket, entrySuffix)
}

// ticketOf returns the ticket of a cache file's name.
func ticketOf(name string) (uint64, bool) {
	digits, ok := strings.CutPrefix(name, entryPrefix)
	if !ok {
		return 0, false
	}
	digits, ok = strings.CutSuffix(digits, entrySuffix)
	if !ok || len(digits) != 20 {
		return 0, false
	}
	t, err := strconv.ParseUint(digits, 10, 64)
	return t, err == nil
}

// tickets lists the tickets of the cache files, ascending (names sort by
// ticket); an absent directory is an empty cache.
func (c *Cache) tickets() ([]uint64, error) {
	des, err := os.ReadDir(c.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("runcatalog: cannot list the catalog cache %s: %w; fix its permissions or remove it", c.dir, err)
	}
	var out []uint64
	for _, de := range des {
		if t, ok := ticketOf(de.Name()); ok && de.Type().IsRegular() {
			out = append(out, t)
		}
	}
	return out, nil
}

// Load returns the newest cached refresh, or nil when there is none. An
// unreadable or invalid file is an error naming it; it is replaced by the
// next refresh.
func (c *Cache) Load() (*Entry, error) {
	ts, err := c.tickets()
	if err != nil || len(ts) == 0 {
		return nil, err
	}
	return c.read(ts[len(ts)-1])
}

func (c *Cache) read(ticket uint64) (*Entry, error) {
	path := filepath.Join(c.dir, entryName(ticket))
	bad := func(why string) error {
		return fmt.Errorf("runcatalog: ignored the cached catalog %s: %s; the next refresh replaces it (run smith models --refresh)", path, why)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, bad(err.Error())
	}
	defer func() { _ = f.Close() }()
	b, err := io.ReadAll(io.LimitReader(f, maxEntry+1))
	switch {
	case err != nil:
		return nil, bad(err.Error())
	case len(b) > maxEntry:
		return nil, bad(fmt.Sprintf("it is larger than %d bytes", maxEntry))
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, bad("it is not a cache entry (" + err.Error() + ")")
	}
	if e.Format != 1 || e.Ticket != ticket || len(e.Document) == 0 {
		return nil, bad(fmt.Sprintf("format %d, ticket %d and a %d-byte document do not match format 1 and the ticket %d of its name", e.Format, e.Ticket, len(e.Document), ticket))
	}
	return &e, nil
}

// Ticket returns the ticket of a refresh starting now: the clock in
// nanoseconds, and above every ticket already cached, so a refresh that
// starts after another has committed always has the larger ticket even if
// the clock stepped back.
func (c *Cache) Ticket() (uint64, error) {
	ts, err := c.tickets()
	if err != nil {
		return 0, err
	}
	t := uint64(max(c.now().UnixNano(), 0))
	if len(ts) > 0 {
		t = max(t, ts[len(ts)-1]+1)
	}
	return t, nil
}

// Commit writes the refreshed document d (raw as fetched) under ticket,
// unless a refresh with a larger ticket or a newer document is already
// cached (an error wrapping [catalog.ErrStale]). Older files are removed
// afterwards.
func (c *Cache) Commit(ticket uint64, d *catalog.Document, raw []byte) error {
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return fmt.Errorf("runcatalog: cannot create the catalog cache %s: %w", c.dir, err)
	}
	ts, err := c.tickets()
	if err != nil {
		return err
	}
	if n := len(ts); n > 0 {
		top := ts[n-1]
		if top > ticket {
			return fmt.Errorf("%w: refresh #%d from %s finished after #%d, which started later (perhaps in another smith), had been cached", catalog.ErrStale, ticket, c.url, top)
		}
		if e, err := c.read(top); err == nil && e.Generated > d.Generated {
			return fmt.Errorf("%w: %s is dated %s, older than the cached %s", catalog.ErrStale, c.url, d.Generated, e.Generated)
		}
	}
	b, err := json.Marshal(Entry{Format: 1, URL: c.url, Fetched: c.now().UTC(), Ticket: ticket, Generated: d.Generated, Document: raw})
	if err != nil {
		return fmt.Errorf("runcatalog: encode the cache entry: %w", err)
	}
	if err := writeAtomic(c.dir, entryName(ticket), b); err != nil {
		return err
	}
	c.prune(ticket)
	return nil
}

// writeAtomic writes b to dir/name through a synced temporary file renamed
// into place.
func writeAtomic(dir, name string, b []byte) error {
	f, err := os.CreateTemp(dir, tempPattern)
	if err != nil {
		return fmt.Errorf("runcatalog: cannot write to the catalog cache %s: %w", dir, err)
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("runcatalog: cannot write %s: %w", filepath.Join(dir, name), err)
	}
	return nil
}

// prune removes the files of refreshes older than ticket and temporary
// files a killed process left more than an hour ago. It is best effort:
// what remains is ignored by Load.
func (c *Cache) prune(ticket uint64) {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, de := range des {
		name := de.Name()
		if t, ok := ticketOf(name); ok && t < ticket {
			_ = os.Remove(filepath.Join(c.dir, name))
			continue
		}
		if ok, _ := filepath.Match(tempPattern, name); ok {
			if info, err := de.Info(); err == nil && c.now().Sub(info.ModTime()) > time.Hour {
				_ = os.Remove(filepath.Join(c.dir, name))
			}
		}
	}
}

// Due reports whether a background refresh is due, given the newest
// cached refresh e (nil when none): e is missing or at least [Interval]
// old (or dated in the future, the clock having moved back), and no
// attempt started in the last [RetryAfter].
func (c *Cache) Due(e *Entry) bool {
	now := c.now()
	if e != nil {
		if age := now.Sub(e.Fetched); age >= 0 && age < Interval {
			return false
		}
	}
	b, err := os.ReadFile(filepath.Join(c.dir, attemptFile))
	if err != nil {
		return true
	}
	at, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	if err != nil {
		return true
	}
	since := now.Sub(at)
	return since < 0 || since >= RetryAfter
}

// MarkAttempt records that a background refresh starts now.
func (c *Cache) MarkAttempt() error {
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return fmt.Errorf("runcatalog: cannot create the catalog cache %s: %w", c.dir, err)
	}
	return writeAtomic(c.dir, attemptFile, []byte(c.now().UTC().Format(time.RFC3339Nano)+"\n"))
}
