package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/catalog/runcatalog"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/route"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/core/vcs"
	"github.com/smith-agent/smith/httpengine"
)

// Config configures [Open]. Cwd and Plugins matter; every other field's
// zero value is a default stated on it.
type Config struct {
	// Cwd is the absolute working directory: where the tools act, which
	// project's configuration and instructions apply, whose sessions
	// --continue picks. Empty means the process's working directory.
	Cwd string
	// Home is the value of --home or SMITH_HOME; "" when neither is set
	// (see [LocatePaths]).
	Home string
	// Flags are the configuration flags given on the command line, by the
	// flag names of config.Options; a flag absent was not given.
	Flags map[string]string
	// LookupEnv reads the environment; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Plugins are the system plugins (the binary embeds them): the tools,
	// the provider codecs and the product plugin. Without a tools plugin
	// the agent has no tools; without codecs only the mock model works.
	Plugins []plugin.Artifact
	// Discover finds the plugins again for [Runtime.Reload]: the system
	// plugins and the user's, a trusted project's and the run's own, as
	// they are now, with a note for each one skipped. Nil reloads Plugins.
	Discover func(ctx context.Context) ([]plugin.Artifact, []string, error)
	// Version is Smith's version, recorded in every session it starts.
	Version string
	// Ephemeral puts the sessions in a temporary store instead of the data
	// directory (eval --no-session): removed by Close when every run ended
	// cleanly, kept (see [Runtime.Kept]) otherwise.
	Ephemeral bool
	// Notify receives the notes that are not events of a session, one
	// sentence each: a project file ignored because the project is not
	// trusted, an unreadable catalog cache, a failed background catalog
	// refresh. Nil discards them.
	Notify func(string)
	// Now is the clock (the date in the system prompt); nil means
	// time.Now.
	Now func() time.Time
	// Answers says a person answers the plugins' confirmation requests
	// (protocol.ConfirmationRequest) with [Session.Answer]: the TUI, an
	// RPC client started with --confirmations. False (smith eval, MCP,
	// replay) ends each request at once as no_user, which the permission
	// policy in mode ask refuses.
	Answers bool
}

// Runtime is the one composition root every frontend drives: it resolves
// the configuration, the catalog, the routing and the credentials, loads
// one plugin generation (tools, provider codecs, product plugin) and opens
// sessions, each with its effect journal and agent. Frontends call its
// operations and read its sessions' events; they never wire those parts
// themselves. A Runtime is safe for concurrent use.
type Runtime struct {
	cfg     Config
	getenv  func(string) string
	paths   Paths
	conf    *config.Config
	plugins *plugins
	engine  func() (*httpengine.Engine, error)

	catalogOnce sync.Once
	catalog     *runcatalog.Catalog
	catalogErr  error
	refresh     *runcatalog.Background

	dirOnce sync.Once
	dir     *session.Dir
	dirErr  error
	temp    string // the ephemeral store

	// secrets are the registered secrets (secrets.go).
	secrets secretProxy

	// reloading serializes Reload.
	reloading sync.Mutex
	mu        sync.Mutex
	sessions  map[*Session]bool
	stores    map[string]*vcs.Store // shadow repositories by worktree
	unclean   bool                  // a run of an ephemeral store did not end cleanly
	kept      string                // the ephemeral store, kept by Close
	closed    bool
}

// Open composes the runtime: configuration (user file, trusted project
// file, environment, flags), then in the background the plugin generation
// (a warm start reads cached registrations and compiles nothing until a
// call needs it). It reads no session and contacts no
// provider. An invalid configuration is an error wrapping [ErrUsage] that
// lists every problem with its file:line:col.
func Open(ctx context.Context, cfg Config) (*Runtime, error) {
	if cfg.LookupEnv == nil {
		cfg.LookupEnv = os.LookupEnv
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Notify == nil {
		cfg.Notify = func(string) {}
	}
	if cfg.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("runtime: cannot read the current directory: %w; pass --cwd DIR", err)
		}
		cfg.Cwd = wd
	}
	if !filepath.IsAbs(cfg.Cwd) {
		return nil, usagef("runtime: the working directory %q is not absolute; resolve it once, at the frontend", cfg.Cwd)
	}
	if st, err := os.Stat(cfg.Cwd); err != nil || !st.IsDir() {
		return nil, usagef("runtime: the working directory %q is not a directory; pass an existing directory", cfg.Cwd)
	}
	getenv := func(k string) string { v, _ := cfg.LookupEnv(k); return v }
	paths, err := LocatePaths(cfg.Home, getenv)
	if err != nil {
		return nil, usagef("%w", err)
	}
	conf, err := config.Load(config.Inputs{UserFile: paths.ConfigFile, ProjectDir: cfg.Cwd, Flags: cfg.Flags, LookupEnv: cfg.LookupEnv})
	if err != nil {
		var errs config.Errors
		if errors.As(err, &errs) {
			return nil, fmt.Errorf("%w%w\n(fix the configuration above; 'smith config show' lists every value and its source)", ErrUsage, err)
		}
		return nil, err
	}
	for _, n := range conf.Notes {
		cfg.Notify(n)
	}
	rt := &Runtime{cfg: cfg, getenv: getenv, paths: paths, conf: conf, sessions: map[*Session]bool{},
		engine: sync.OnceValues(func() (*httpengine.Engine, error) { return httpengine.New(engineConfig(conf)) })}
	if n := rt.sandboxNote(); n != "" {
		cfg.Notify(n)
	}
	plog := newPluginLog(paths.PluginLog())
	plog.redact = func(b []byte) []byte { r, _ := rt.secrets.set.Redact(b); return r }
	arts, notes := configured(cfg.Plugins, conf, paths.ConfigFile)
	for _, n := range notes {
		cfg.Notify(n)
	}
	rt.plugins = loadPlugins(ctx, paths.Cache, plog, pluginSecrets{rt}, arts, cfg.Notify)
	rt.plugins.warming.Add(1)
	go func() {
		defer rt.plugins.warming.Done()
		rt.warm(conf.Model.Value)
	}()
	return rt, nil
}

// warm compiles, in the background, what the first run needs: the
// product plugin, the codec plugins serving the configured model name,
// the tools plugin and the plugins that handle events (the permission
// policy decides the first tool call). With a codec to compile, the tools
// and handlers come after it: the
// codec is on the way to the first request and the tools are not (their
// definitions come from the registration), so on a two-core machine they
// would only slow it; they compile while the request is out. A mock model
// needs no codec and may call a tool at once, so the tools come first.
// Any failure shows again, with its context, at the first call.
func (rt *Runtime) warm(name string) {
	codecs := rt.modelCodecs(name)
	if len(codecs) == 0 {
		rt.plugins.prepareNow(append([]string{toolsPlugin, productPlugin}, rt.plugins.subscribers()...)...)
		return
	}
	rt.plugins.prepareNow(append(codecs, productPlugin)...)
	rt.plugins.prepareNow(append([]string{toolsPlugin}, rt.plugins.subscribers()...)...)
}

// modelCodecs returns the codec plugins serving the model called name,
// or nil for none, a mock model or a name that does not resolve (the
// session's own binding reports that).
func (rt *Runtime) modelCodecs(name string) []string {
	if name == "" || mockprovider.Is(name) {
		return nil
	}
	cat, err := rt.Catalog()
	if err != nil {
		return nil
	}
	targets, err := route.Resolve(rt.conf.Route(), cat.Snapshot(), name)
	if err != nil {
		return nil
	}
	gen, err := rt.plugins.generation(context.Background())
	if err != nil {
		return nil
	}
	var codecs []string
	for _, t := range targets {
		if d, ok := gen.Provider(rt.conf.Provider(t.Provider).Codec()); ok && !slices.Contains(codecs, d.Plugin) {
			codecs = append(codecs, d.Plugin)
		}
	}
	return codecs
}

// StartCatalogRefresh starts a background catalog refresh, for the next
// start, when catalog-refresh is on and one is due (at most one a day); it
// returns at once and never delays the command. Close abandons it and
// reports a failure through Notify. Calls after the first do nothing.
func (rt *Runtime) StartCatalogRefresh(ctx context.Context) {
	if rt.conf.CatalogRefresh.Value == "" {
		return
	}
	c, err := rt.Catalog()
	if err != nil || !c.Enabled() {
		return
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.refresh == nil && !rt.closed {
		rt.refresh = c.Start(context.WithoutCancel(ctx))
	}
}

// ErrUsage marks errors a user fixes by changing what they passed: a flag,
// an environment variable, smith.kdl, a model or session name. Frontends
// test for it with errors.Is (the CLI exits 2).
var ErrUsage = errors.New("")

// engineConfig is the HTTP engine's configuration: the head timeout as
// configured (head-timeout), the response bound, and a chunk gap just past
// the idle timeout,
// so that a stalled body is reported by the provider's idle bound, which
// names the setting, rather than by the engine's.
func engineConfig(conf *config.Config) httpengine.Config {
	return httpengine.Config{HeadTimeout: conf.Timeout(config.KeyHeadTimeout), ChunkGap: conf.Timeout(config.KeyIdleTimeout) + 5*time.Second,
		MaxResponseBody: MaxResponseBytes}
}

// MaxResponseBytes bounds one provider response body: 8 MiB, some five
// times the stream of a 128k-token answer. A longer body is cut there as a
// truncated response, and what arrived is kept; the bound keeps a runaway
// or hostile server from costing gigabytes (a response is held a few times
// over while it is decoded, recorded and journaled).
const MaxResponseBytes = 8 << 20

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w"+format, append([]any{ErrUsage}, args...)...)
}

// Configuration returns the resolved configuration. It is immutable.
func (rt *Runtime) Configuration() *config.Config { return rt.conf }

// Paths returns where Smith keeps its files.
func (rt *Runtime) Paths() Paths { return rt.paths }

// Cwd returns the working directory.
func (rt *Runtime) Cwd() string { return rt.cfg.Cwd }

// Catalog returns the run's model catalog (opened on first use): the
// bundle, the newest cached refresh when catalog-refresh is on, and the
// configuration's model-info blocks above both. It never waits on the
// network.
func (rt *Runtime) Catalog() (*runcatalog.Catalog, error) {
	rt.catalogOnce.Do(func() {
		o := runcatalog.Options{URL: rt.conf.CatalogRefresh.Value, DataDir: rt.paths.Data, Warn: rt.cfg.Notify}
		if len(rt.conf.Models) > 0 {
			o.Layers = []catalog.Layer{rt.conf.CatalogLayer()}
		}
		rt.catalog, rt.catalogErr = runcatalog.Open(o)
	})
	return rt.catalog, rt.catalogErr
}

// AuthFile returns Smith's auth file.
func (rt *Runtime) AuthFile() *auth.File { return auth.OpenFile(rt.paths.AuthFile()) }

// Generation waits for the plugin generation and returns it. Frontends
// need it only for listings (the providers it declares).
func (rt *Runtime) Generation(ctx context.Context) (*plugin.Generation, error) {
	return rt.plugins.generation(ctx)
}

// sessionDir opens the sessions directory on first use.
func (rt *Runtime) sessionDir() (*session.Dir, error) {
	rt.dirOnce.Do(func() {
		path := rt.paths.Sessions()
		if rt.cfg.Ephemeral {
			tmp, err := os.MkdirTemp("", "smith-session-")
			if err != nil {
				rt.dirErr = fmt.Errorf("runtime: create the temporary session store: %w; check TMPDIR", err)
				return
			}
			rt.temp, path = tmp, tmp
		}
		rt.dir, rt.dirErr = session.OpenDir(path)
	})
	return rt.dir, rt.dirErr
}

// Kept returns the temporary session store Close kept because a run did
// not end cleanly; "" when there is none (the store was removed, or
// sessions are not ephemeral).
func (rt *Runtime) Kept() string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.kept
}

// Close closes every open session, abandons a background catalog refresh
// (reporting its failure through Notify), releases the plugins and, for an
// ephemeral store, removes it — unless a run did not end cleanly, when it
// is kept ([Runtime.Kept]). It is idempotent.
func (rt *Runtime) Close(ctx context.Context) error {
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return nil
	}
	rt.closed = true
	open := make([]*Session, 0, len(rt.sessions))
	for s := range rt.sessions {
		open = append(open, s)
	}
	rt.mu.Unlock()
	var errs []error
	for _, s := range open {
		errs = append(errs, s.Close(ctx))
	}
	rt.mu.Lock()
	refresh := rt.refresh
	rt.mu.Unlock()
	if refresh != nil {
		if n := refresh.Stop(); n != "" {
			rt.cfg.Notify(n)
		}
	}
	errs = append(errs, rt.plugins.close(context.WithoutCancel(ctx)))
	if rt.temp != "" {
		rt.mu.Lock()
		unclean := rt.unclean
		rt.mu.Unlock()
		if unclean {
			rt.mu.Lock()
			rt.kept = rt.temp
			rt.mu.Unlock()
		} else if err := os.RemoveAll(rt.temp); err != nil {
			errs = append(errs, fmt.Errorf("runtime: remove the temporary session store %s: %w; delete it by hand", rt.temp, err))
		}
	}
	return errors.Join(errs...)
}
