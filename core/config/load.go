package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/smith-agent/smith/core/catalog"
)

// FileName is the name of a configuration file.
const FileName = "smith.kdl"

// ProjectFile is a project's configuration file, relative to the project's
// root directory.
var ProjectFile = filepath.Join(".smith", FileName)

// maxFile bounds the size of a configuration file.
const maxFile = 1 << 20

// Contribution is the configuration a plugin supplies: a smith.kdl
// document, read with the same schema as the files.
type Contribution struct {
	// Plugin names the plugin, for sources and errors.
	Plugin string
	// Defaults marks the plugin's built-in defaults (LayerPluginDefault);
	// otherwise it is a contribution (LayerPlugin).
	Defaults bool
	Text     []byte
}

// Inputs are the sources [Load] reads.
type Inputs struct {
	// UserFile is the user's smith.kdl; a missing file is an empty layer.
	// Empty means none.
	UserFile string
	// ProjectDir is the directory the run works in: the nearest ancestor
	// (itself included) holding .smith/smith.kdl is the project. Empty
	// means no project.
	ProjectDir string
	// Plugins are the plugins' defaults and contributions, applied in
	// order after the product defaults.
	Plugins []Contribution
	// LookupEnv reads the environment; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Flags maps a flag name of [Options] to the value given on the
	// command line; a flag absent from the map was not given.
	Flags map[string]string
}

// Load resolves the configuration from in. It reads every layer and
// returns every problem found as [Errors]; an I/O failure (other than a
// missing file) is an error naming the file.
func Load(in Inputs) (*Config, error) {
	lookup := in.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	cfg := &Config{Providers: map[string]*Provider{}, Aliases: map[string]Setting[string]{}, Groups: map[string]Setting[[]string]{},
		Models: map[string]Setting[catalog.Model]{}}
	var errs Errors
	for _, c := range in.Plugins {
		l := LayerPlugin
		if c.Defaults {
			l = LayerPluginDefault
		}
		d, es := parseDocument(l, "", c.Plugin, c.Text, time.Now().UTC().Format(time.DateOnly))
		errs = append(errs, es...)
		merge(cfg, d)
	}
	var trusted []Setting[string]
	if in.UserFile != "" {
		d, state, es, err := readFile(LayerUser, in.UserFile)
		if err != nil {
			return nil, err
		}
		cfg.Files = append(cfg.Files, File{Layer: LayerUser, Path: in.UserFile, State: state})
		errs = append(errs, es...)
		merge(cfg, d)
		cfg.Notes = append(cfg.Notes, d.notes...)
		trusted = d.trusted
		cfg.Trusted = d.trusted
	}
	env, es := fromEnv(lookup)
	errs = append(errs, es...)
	flags, es := fromFlags(in.Flags)
	errs = append(errs, es...)
	cfg.TrustProject = env.cfg.TrustProject
	if flags.cfg.TrustProject.IsSet() {
		cfg.TrustProject = flags.cfg.TrustProject
	}
	if root := findProject(in.ProjectDir); root != "" {
		path := filepath.Join(root, ProjectFile)
		if ok, why := isTrusted(root, trusted, cfg.TrustProject); ok {
			d, state, es, err := readFile(LayerProject, path)
			if err != nil {
				return nil, err
			}
			cfg.Files = append(cfg.Files, File{Layer: LayerProject, Path: path, State: state, Trust: why})
			errs = append(errs, es...)
			confineProject(&d, cfg, root)
			merge(cfg, d)
			cfg.Notes = append(cfg.Notes, d.notes...)
		} else {
			cfg.Files = append(cfg.Files, File{Layer: LayerProject, Path: path, State: FileUntrusted})
			cfg.Notes = append(cfg.Notes, fmt.Sprintf("ignored the project's %s: the project %s is not trusted; trust it with 'smith config trust' (which adds trusted-project %q to %s), or for one run with --trust-project", path, root, root, userFileHint(in.UserFile)))
		}
	}
	merge(cfg, env)
	merge(cfg, flags)
	errs = append(errs, check(cfg)...)
	if len(errs) > 0 {
		return nil, errs
	}
	return cfg, nil
}

func userFileHint(f string) string {
	if f == "" {
		return "your smith.kdl"
	}
	return f
}

// readFile reads and parses one configuration file. A missing file is an
// empty layer.
func readFile(l Layer, path string) (layerData, FileState, Errors, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return layerData{}, FileAbsent, nil, nil
	}
	if err != nil {
		return layerData{}, "", nil, fmt.Errorf("config: cannot read %s: %w; fix its permissions or remove it", path, err)
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return layerData{}, "", nil, fmt.Errorf("config: cannot read %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return layerData{}, "", nil, fmt.Errorf("config: %s is not a regular file; replace it with a KDL file or remove it", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return layerData{}, "", nil, fmt.Errorf("config: cannot read %s: %w", path, err)
	}
	if len(b) > maxFile {
		return layerData{}, "", nil, fmt.Errorf("config: %s is larger than %d bytes; a configuration file is a few kilobytes, so check it is the right file", path, maxFile)
	}
	d, errs := parseDocument(l, path, "", b, st.ModTime().UTC().Format(time.DateOnly))
	if perm := st.Mode().Perm(); perm&0o077 != 0 && hasLiteralKey(d.cfg) {
		d.notes = append(d.notes, fmt.Sprintf("%s holds a literal credential and others may read it (mode %#o); run chmod 600 %s, or name an environment variable instead (credential env=\"NAME\")", path, perm, path))
	}
	return d, FileLoaded, errs, nil
}

// hasLiteralKey reports whether c holds a credential written as a literal.
func hasLiteralKey(c Config) bool {
	for _, p := range c.Providers {
		for _, cr := range p.Credentials {
			if !cr.Key.Empty() {
				return true
			}
		}
	}
	return false
}

// findProject returns the nearest ancestor of dir (itself included) that
// holds .smith/smith.kdl, or "".
func findProject(dir string) string {
	if dir == "" {
		return ""
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, ProjectFile)); err == nil && !st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// canonical returns the project trust identity of a path: absolute, with
// symbolic links resolved, so aliases share one decision.
func canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	return filepath.Clean(p)
}

// isTrusted decides whether the project at root may be read, and why.
func isTrusted(root string, trusted []Setting[string], once Setting[bool]) (bool, string) {
	if once.Value {
		return true, "trusted for this run by " + once.Source.String()
	}
	id := canonical(root)
	for _, t := range trusted {
		if canonical(t.Value) == id {
			return true, "trusted by " + t.Source.String()
		}
	}
	return false, ""
}

// merge applies layer d over cfg: every value d sets replaces cfg's.
// Provider blocks merge field by field; a quirks block replaces the
// previous one whole.
func merge(cfg *Config, d layerData) {
	s := d.cfg
	if s.Model.IsSet() {
		cfg.Model = s.Model
	}
	if s.Thinking.IsSet() {
		cfg.Thinking = s.Thinking
	}
	if s.MaxOutputTokens.IsSet() {
		cfg.MaxOutputTokens = s.MaxOutputTokens
	}
	if s.MaxCost.IsSet() {
		cfg.MaxCost = s.MaxCost
	}
	for _, k := range []string{KeyHeadTimeout, KeyIdleTimeout, KeyResponseTimeout} {
		if t := s.timeoutSetting(k); t.IsSet() {
			*cfg.timeoutSetting(k) = *t
		}
	}
	if s.BaseURLFlag.IsSet() {
		cfg.BaseURLFlag = s.BaseURLFlag
	}
	if s.SystemPrompt.IsSet() {
		cfg.SystemPrompt = s.SystemPrompt
	}
	if s.CatalogRefresh.IsSet() {
		cfg.CatalogRefresh = s.CatalogRefresh
	}
	cfg.Ignore = append(cfg.Ignore, s.Ignore...)
	maps.Copy(cfg.Aliases, s.Aliases)
	maps.Copy(cfg.Models, s.Models)
	maps.Copy(cfg.Groups, s.Groups)
	mergeUI(&cfg.UI, s.UI)
	mergeCompaction(&cfg.Compaction, s.Compaction)
	mergeSandbox(cfg, s)
	mergePermissions(cfg, s)
	mergePluginBudgets(cfg, s)
	cfg.Secrets = append(cfg.Secrets, s.Secrets...)
	cfg.TrustedBaseURLs = append(cfg.TrustedBaseURLs, s.TrustedBaseURLs...)
	for _, name := range slices.Sorted(maps.Keys(s.Providers)) {
		p := s.Providers[name]
		cur, ok := cfg.Providers[name]
		if !ok {
			cur = &Provider{Name: name}
			cfg.Providers[name] = cur
		}
		cur.Source = p.Source
		if p.API.IsSet() {
			if p.API.Source.Layer == LayerProject {
				cur.APIBefore = cur.API
			}
			cur.API = p.API
		}
		if p.BaseURL.IsSet() {
			cur.BaseURL = p.BaseURL
		}
		if p.Accounts.IsSet() {
			cur.Accounts = p.Accounts
		}
		if p.Quirks.IsSet() {
			cur.Quirks = p.Quirks
		}
		for acct, c := range p.Credentials {
			if cur.Credentials == nil {
				cur.Credentials = map[string]Credential{}
			}
			cur.Credentials[acct] = c
		}
	}
}
