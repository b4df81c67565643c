package pluginpkg

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Statuses of an installed plugin.
const (
	StatusEnabled    = "enabled"
	StatusDisabled   = "disabled"
	StatusChanged    = "changed"    // the artifact is not the one installed
	StatusIncomplete = "incomplete" // a package directory with no grant
)

// Entry is one installed plugin as List reports it.
type Entry struct {
	Grant
	Tier          string        `json:"tier"`
	Status        string        `json:"status"`
	Dir           string        `json:"dir"`
	Contributions Contributions `json:"contributions"`
	// Problem says why the plugin cannot load, when it cannot.
	Problem string `json:"problem,omitempty"`
}

// List reports every installed plugin, hashing each artifact (a changed
// one is StatusChanged), and notes about leftovers of interrupted
// installs.
func (s *Store) List() ([]Entry, []string, error) {
	gs, err := s.readGrants()
	if err != nil {
		return nil, nil, err
	}
	var out []Entry
	for _, g := range gs {
		out = append(out, s.entry(g))
	}
	ents, _ := os.ReadDir(s.Dir)
	for _, e := range ents {
		if !e.IsDir() || ValidName(e.Name()) != nil || slices.ContainsFunc(gs, func(g Grant) bool { return g.Name == e.Name() }) {
			continue
		}
		out = append(out, Entry{Grant: Grant{Name: e.Name()}, Tier: TierUser, Status: StatusIncomplete, Dir: filepath.Join(s.Dir, e.Name()),
			Problem: "the package has no recorded grant (an interrupted install); install it again or remove it with smith plugin remove " + e.Name()})
	}
	var notes []string
	for _, d := range s.Leftovers() {
		notes = append(notes, "an interrupted install or removal left "+d+"; the next smith plugin install removes it")
	}
	return out, notes, nil
}

// Info reports the installed plugin name.
func (s *Store) Info(name string) (Entry, error) {
	es, _, err := s.List()
	if err != nil {
		return Entry{}, err
	}
	for _, e := range es {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("plugin %q is %w; see smith plugin list", name, ErrNotInstalled)
}

// entry checks the installed plugin g.
func (s *Store) entry(g Grant) Entry {
	e := Entry{Grant: g, Tier: TierUser, Status: StatusDisabled, Dir: filepath.Join(s.Dir, g.Name)}
	if g.Enabled {
		e.Status = StatusEnabled
	}
	if reg, err := readBounded(filepath.Join(e.Dir, RegistrationFile), MaxManifest*16, "registration"); err == nil {
		e.Contributions, _ = ContributionsOf(reg)
	}
	apath, err := inside(e.Dir, g.Artifact)
	if err != nil {
		e.Status, e.Problem = StatusChanged, err.Error()
		return e
	}
	wasm, err := ReadArtifact(apath)
	if err != nil {
		e.Status, e.Problem = StatusChanged, err.Error()
		return e
	}
	sum := sha256.Sum256(wasm)
	if hex.EncodeToString(sum[:]) != g.SHA256 {
		e.Status = StatusChanged
		e.Problem = fmt.Sprintf("the artifact %s is not the one installed (SHA-256 %s); it is not loaded; decide again with smith plugin install PATH", apath, g.SHA256)
	}
	return e
}
