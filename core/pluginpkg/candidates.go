package pluginpkg

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/wasmhost"
)

// Tiers of the plugins this package loads (the embedded ones are
// "system").
const (
	TierUser    = "user"
	TierProject = "project"
	TierFlag    = "flag" // an explicit --plugin PATH, trusted for one run
)

// Candidate is one plugin to load after the system plugins.
type Candidate struct {
	Tier string
	// Source is where it came from: the package directory.
	Source string
	// Artifact is what core/plugin loads; Artifact.Registration is set
	// for an installed plugin (computed at install) and otherwise by
	// [Select]'s register function.
	Artifact plugin.Artifact
}

// artifactOf builds the artifact of a package granted what its manifest
// requests (the trust decision of a project or --plugin package).
func artifactOf(p *Package) plugin.Artifact {
	sum := sha256.Sum256(p.Wasm)
	return plugin.Artifact{Name: p.Manifest.Name, Wasm: p.Wasm, SHA256: hex.EncodeToString(sum[:]),
		Grants: slices.Clone(p.Manifest.Capabilities), Network: slices.Clone(p.Manifest.Network), Secrets: slices.Clone(p.Manifest.Secrets), Stores: slices.Clone(p.Manifest.Stores), Timeout: p.Manifest.Timeout,
		MemoryPages: uint32(p.Manifest.Memory / wasmhost.PageSize)}
}

// DirCandidate reads the package at dir as a one-run candidate of tier.
func DirCandidate(dir, tier string) (Candidate, error) {
	p, err := OpenPackage(dir)
	if err != nil {
		return Candidate{}, err
	}
	return Candidate{Tier: tier, Source: p.Dir, Artifact: artifactOf(p)}, nil
}

// ProjectPlugins is the directory of a project's plugin packages,
// relative to the project root.
const ProjectPlugins = ".smith/plugins"

// ProjectCandidates reads every package under root/.smith/plugins (one
// directory each, in name order), granting each what its manifest
// requests. Call it only for a trusted project. A package that does not
// validate is a note, not an error.
func ProjectCandidates(root string) ([]Candidate, []string) {
	dir := filepath.Join(root, filepath.FromSlash(ProjectPlugins))
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, []string{fmt.Sprintf("cannot read the project's plugins in %s: %v", dir, err)}
	}
	var out []Candidate
	var notes []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		c, err := DirCandidate(filepath.Join(dir, e.Name()), TierProject)
		if err != nil {
			notes = append(notes, fmt.Sprintf("skipped the project plugin %s: %v", filepath.Join(dir, e.Name()), err))
			continue
		}
		out = append(out, c)
	}
	return out, notes
}

// Candidates returns the enabled installed plugins, reading grants.json
// once. An artifact whose size or modification time differs from the
// recorded ones is hashed, and refused when its SHA-256 is no longer the
// recorded one (a note names it and how to decide again); an unchanged
// one is not hashed here (core/plugin verifies the pin before it runs).
func (s *Store) Candidates() ([]Candidate, []string) {
	gs, err := s.readGrants()
	if err != nil {
		return nil, []string{"ignored your installed plugins: " + err.Error()}
	}
	var out []Candidate
	var notes []string
	for _, g := range gs {
		if !g.Enabled {
			continue
		}
		c, err := s.candidate(g)
		if err != nil {
			notes = append(notes, fmt.Sprintf("skipped the plugin %q: %v", g.Name, err))
			continue
		}
		out = append(out, c)
	}
	return out, notes
}

// candidate reads the installed plugin g.
func (s *Store) candidate(g Grant) (Candidate, error) {
	if err := ValidName(g.Name); err != nil {
		return Candidate{}, err
	}
	root := filepath.Join(s.Dir, g.Name)
	apath, err := inside(root, g.Artifact)
	if err != nil {
		return Candidate{}, err
	}
	wasm, err := ReadArtifact(apath)
	if err != nil {
		return Candidate{}, err
	}
	if changed, err := g.changed(apath, wasm); err != nil {
		return Candidate{}, err
	} else if changed {
		return Candidate{}, fmt.Errorf("its artifact %s changed since it was installed (SHA-256 no longer %s), so it was not loaded; if you trust the new artifact, decide again with smith plugin install PATH", apath, g.SHA256)
	}
	var timeout time.Duration
	if g.Timeout != "" {
		if timeout, err = time.ParseDuration(g.Timeout); err != nil {
			return Candidate{}, fmt.Errorf("its recorded timeout %q is not a duration; install it again", g.Timeout)
		}
	}
	reg, _ := readBounded(filepath.Join(root, RegistrationFile), MaxManifest*16, "registration")
	return Candidate{Tier: TierUser, Source: root, Artifact: plugin.Artifact{Name: g.Name, Wasm: wasm, SHA256: g.SHA256,
		Grants: slices.Clone(g.Capabilities), Network: slices.Clone(g.Network), Secrets: slices.Clone(g.Secrets), Stores: slices.Clone(g.Stores), Timeout: timeout,
		MemoryPages: uint32(g.Memory / wasmhost.PageSize), Registration: reg}}, nil
}

// changed reports whether the artifact at path (its bytes wasm) differs
// from the recorded one; it hashes only when the size or modification
// time differ from those recorded.
func (g Grant) changed(path string, wasm []byte) (bool, error) {
	st, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	if st.Size() == g.Size && st.ModTime().UnixNano() == g.ModTime && int64(len(wasm)) == g.Size {
		return false, nil
	}
	sum := sha256.Sum256(wasm)
	return hex.EncodeToString(sum[:]) != g.SHA256, nil
}

// Artifact is the package's artifact granted what its manifest requests.
func (p *Package) Artifact() plugin.Artifact { return artifactOf(p) }
