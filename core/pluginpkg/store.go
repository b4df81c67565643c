package pluginpkg

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/smith-agent/smith/core/internal/atomicfile"
)

// Store files: the grants file and, in each package directory, the
// registration computed at install.
const (
	GrantsFile       = "grants.json"
	RegistrationFile = "registration.json"
	installPrefix    = ".install-"
	oldPrefix        = ".old-"
)

// Grant is the install decision for one plugin, as grants.json records it.
type Grant struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Artifact is the artifact's path inside the installed package.
	Artifact string `json:"artifact"`
	// SHA256 is the installed artifact's hex SHA-256; Size and ModTime
	// (Unix nanoseconds) let a start skip hashing an unchanged file.
	SHA256  string `json:"sha256"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime_ns"`
	// Capabilities, Network and Secrets are what the plugin is granted:
	// the capabilities, the http URL prefixes and the secrets its http
	// request headers may carry by reference.
	Capabilities []string `json:"capabilities"`
	Network      []string `json:"network,omitempty"`
	Secrets      []string `json:"secrets,omitempty"`
	// Stores are the secrets the secrets capability may store and check.
	Stores []string `json:"stores,omitempty"`
	// Timeout is the manifest's budget hint ("" for the default).
	Timeout string `json:"timeout,omitempty"`
	// Memory is the manifest's memory hint in bytes (0 for the default).
	Memory    int64     `json:"memory,omitempty"`
	Enabled   bool      `json:"enabled"`
	Installed time.Time `json:"installed,omitzero"`
	// Source is the path it was installed from.
	Source string `json:"source"`
}

// grantsDoc is grants.json.
type grantsDoc struct {
	Format  int     `json:"format"`
	Plugins []Grant `json:"plugins"`
}

// Store is the user's installed plugins: Dir is DATA/plugins.
type Store struct{ Dir string }

// NewStore returns the store under Smith's data directory.
func NewStore(dataDir string) *Store { return &Store{Dir: filepath.Join(dataDir, "plugins")} }

// grantsPath is the grants file.
func (s *Store) grantsPath() string { return filepath.Join(s.Dir, GrantsFile) }

// readGrants reads grants.json; a missing file is no plugins.
func (s *Store) readGrants() ([]Grant, error) {
	b, err := os.ReadFile(s.grantsPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", s.grantsPath(), err)
	}
	var d grantsDoc
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s is not valid: %v; remove it and install the plugins again", s.grantsPath(), err)
	}
	return d.Plugins, nil
}

// writeGrants replaces grants.json atomically.
func (s *Store) writeGrants(gs []Grant) error {
	slices.SortFunc(gs, func(a, b Grant) int { return strings.Compare(a.Name, b.Name) })
	b, err := json.MarshalIndent(grantsDoc{Format: 1, Plugins: gs}, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Replace(s.grantsPath(), append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("cannot record the grants: %w", err)
	}
	return nil
}

// lock holds the store's lock for one change.
func (s *Store) lock() (func(), error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", s.Dir, err)
	}
	l := flock.New(filepath.Join(s.Dir, ".lock"))
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("cannot lock %s: %w", s.Dir, err)
	}
	return func() { _ = l.Unlock() }, nil
}

// Leftovers lists the directories an interrupted install or removal left
// in the store.
func (s *Store) Leftovers() []string {
	ents, _ := os.ReadDir(s.Dir)
	var out []string
	for _, e := range ents {
		if e.IsDir() && (strings.HasPrefix(e.Name(), installPrefix) || strings.HasPrefix(e.Name(), oldPrefix)) {
			out = append(out, filepath.Join(s.Dir, e.Name()))
		}
	}
	return out
}

// clean removes the leftovers, returning a note per removal; called with
// the lock held.
func (s *Store) clean() []string {
	var notes []string
	for _, d := range s.Leftovers() {
		if os.RemoveAll(d) == nil {
			notes = append(notes, "removed "+d+", left by an interrupted install or removal")
		}
	}
	return notes
}

// Install copies pkg into the store and records its grant: the
// capabilities and network scopes its manifest requests. reg is its
// registration ([Register]), kept with it so that no start has to
// compute it. reserved are names the user's plugins may not take (the
// embedded plugins'). The copy is written to a temporary directory, synced
// and renamed into place, and only then recorded: an interrupted install
// leaves nothing installed (the next Install removes what it left). It
// returns the grant and notes (leftovers removed).
func (s *Store) Install(pkg *Package, reg []byte, reserved []string) (Grant, []string, error) {
	m := pkg.Manifest
	if err := ValidName(m.Name); err != nil {
		return Grant{}, nil, err
	}
	if slices.Contains(reserved, m.Name) {
		return Grant{}, nil, fmt.Errorf("plugin name %q is the name of a plugin embedded in Smith; choose another name in %s", m.Name, ManifestFile)
	}
	unlock, err := s.lock()
	if err != nil {
		return Grant{}, nil, err
	}
	defer unlock()
	notes := s.clean()
	tmp, err := os.MkdirTemp(s.Dir, installPrefix+m.Name+"-")
	if err != nil {
		return Grant{}, notes, fmt.Errorf("cannot create a directory in %s: %w", s.Dir, err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	art := filepath.Join(tmp, filepath.FromSlash(m.Artifact))
	if err := writeSynced(filepath.Join(tmp, ManifestFile), pkg.ManifestText); err != nil {
		return Grant{}, notes, err
	}
	if err := os.MkdirAll(filepath.Dir(art), 0o755); err != nil {
		return Grant{}, notes, err
	}
	if err := writeSynced(art, pkg.Wasm); err != nil {
		return Grant{}, notes, err
	}
	if err := writeSynced(filepath.Join(tmp, RegistrationFile), reg); err != nil {
		return Grant{}, notes, err
	}
	syncDir(filepath.Dir(art))
	syncDir(tmp)
	st, err := os.Stat(art)
	if err != nil {
		return Grant{}, notes, err
	}
	sum := sha256.Sum256(pkg.Wasm)
	g := Grant{Name: m.Name, Version: m.Version, Artifact: m.Artifact, SHA256: hex.EncodeToString(sum[:]), Size: st.Size(), ModTime: st.ModTime().UnixNano(),
		Capabilities: slices.Clone(m.Capabilities), Network: slices.Clone(m.Network), Secrets: slices.Clone(m.Secrets), Stores: slices.Clone(m.Stores), Enabled: true, Installed: time.Now().UTC().Truncate(time.Second), Source: pkg.Dir}
	if g.Capabilities == nil {
		g.Capabilities = []string{}
	}
	if m.Timeout > 0 {
		g.Timeout = m.Timeout.String()
	}
	g.Memory = m.Memory
	gs, err := s.readGrants()
	if err != nil {
		return Grant{}, notes, err
	}
	dst := filepath.Join(s.Dir, m.Name)
	var old string
	if _, err := os.Lstat(dst); err == nil {
		old = filepath.Join(s.Dir, oldPrefix+m.Name+"-"+filepath.Base(tmp)[len(installPrefix)+len(m.Name)+1:])
		if err := os.Rename(dst, old); err != nil {
			return Grant{}, notes, fmt.Errorf("cannot replace %s: %w", dst, err)
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		if old != "" {
			_ = os.Rename(old, dst)
		}
		return Grant{}, notes, fmt.Errorf("cannot install into %s: %w", dst, err)
	}
	syncDir(s.Dir)
	gs = slices.DeleteFunc(gs, func(x Grant) bool { return x.Name == m.Name })
	if err := s.writeGrants(append(gs, g)); err != nil {
		_ = os.RemoveAll(dst)
		if old != "" {
			_ = os.Rename(old, dst)
		}
		return Grant{}, notes, err
	}
	if old != "" {
		_ = os.RemoveAll(old)
	}
	return g, notes, nil
}

// writeSynced writes b to a new file at path and syncs it.
func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("cannot create %s: %w", path, err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

// syncDir syncs a directory's entries, best effort.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// ErrNotInstalled is returned for a name no plugin is installed under.
var ErrNotInstalled = errors.New("not installed")

// Remove deletes the installed plugin name: its grant first, then its
// package directory.
func (s *Store) Remove(name string) error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	s.clean()
	gs, err := s.readGrants()
	if err != nil {
		return err
	}
	dst := filepath.Join(s.Dir, name)
	_, statErr := os.Lstat(dst)
	n := len(gs)
	gs = slices.DeleteFunc(gs, func(x Grant) bool { return x.Name == name })
	if n == len(gs) && statErr != nil {
		return fmt.Errorf("plugin %q is %w; see smith plugin list", name, ErrNotInstalled)
	}
	if n != len(gs) {
		if err := s.writeGrants(gs); err != nil {
			return err
		}
	}
	if statErr == nil && ValidName(name) == nil {
		old := filepath.Join(s.Dir, oldPrefix+name+"-removed")
		if err := os.Rename(dst, old); err != nil {
			return fmt.Errorf("cannot remove %s: %w", dst, err)
		}
		return os.RemoveAll(old)
	}
	return nil
}

// SetEnabled enables or disables the installed plugin name.
func (s *Store) SetEnabled(name string, on bool) (Grant, error) {
	unlock, err := s.lock()
	if err != nil {
		return Grant{}, err
	}
	defer unlock()
	gs, err := s.readGrants()
	if err != nil {
		return Grant{}, err
	}
	i := slices.IndexFunc(gs, func(x Grant) bool { return x.Name == name })
	if i < 0 {
		return Grant{}, fmt.Errorf("plugin %q is %w; see smith plugin list", name, ErrNotInstalled)
	}
	gs[i].Enabled = on
	g := gs[i]
	return g, s.writeGrants(gs)
}
