package plugin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// readScope is where prompts and context transforms may read: the
// repository (or, outside one, the working directory) and the user's
// configuration directory, read-only, journaled in the binding's journal.
// The tools' roots are not involved: a session bound to a subdirectory of
// a repository still gets the AGENTS.md at the repository's root, and
// nothing a prompt plugin does can write.
type readScope struct {
	ops   *hostops.Ops
	facts pluginabi.RuntimeFacts
}

// openScope resolves f's directories (symbolic links resolved, so the
// plugin's paths match the roots) and opens them as read-only roots. A
// configuration directory that does not exist is passed on as none: there
// is nothing to read in it. Close the scope's FS when done.
func (b *Binding) openScope(f Facts) (*readScope, error) {
	cwd, err := realDir("Facts.Cwd", f.Cwd)
	if err != nil {
		return nil, err
	}
	pf := pluginabi.RuntimeFacts{WorkingDirectory: cwd, OperatingSystem: f.OS, Architecture: f.Arch, Shell: f.Shell,
		Date: f.Date, Model: pluginabi.ModelIdentity{Provider: f.Model.Provider, Name: f.Model.Name, DisplayName: f.Model.DisplayName},
		Tools: f.Tools}
	roots := []string{cwd}
	if r := f.Repository; r != nil {
		root, err := realDir("Facts.Repository.Root", r.Root)
		if err != nil {
			return nil, err
		}
		if !contains(root, cwd) {
			return nil, fmt.Errorf("plugin: Facts.Repository.Root %q does not contain Facts.Cwd %q; compute the repository from the working directory", r.Root, f.Cwd)
		}
		pf.Repository = &pluginabi.Repository{Root: root}
		if r.Branch != "" {
			pf.Repository.Branch = &r.Branch
		}
		roots[0] = root
	}
	if f.ConfigDir != "" {
		if !filepath.IsAbs(f.ConfigDir) {
			return nil, fmt.Errorf("plugin: Facts.ConfigDir %q is not absolute; resolve it once, where the configuration is found", f.ConfigDir)
		}
		if dir, err := filepath.EvalSymlinks(f.ConfigDir); err == nil {
			if st, err := os.Stat(dir); err == nil && st.IsDir() {
				pf.ConfigurationDirectory = &dir
				roots = append(roots, dir)
			}
		}
	}
	fs, err := hostfs.New(roots...)
	if err != nil {
		return nil, fmt.Errorf("plugin: open the prompt plugins' read scope: %w", err)
	}
	return &readScope{ops: &hostops.Ops{FS: fs, Journal: b.ops.Journal}, facts: pf}, nil
}

// close releases the scope's roots.
func (s *readScope) close() { _ = s.ops.FS.Close() }

// context returns ctx for a call of plugin generation gen attributed to
// parent, whose fs imports read through the scope and may not write.
func (s *readScope) context(ctx context.Context, gen uint64, parent string) context.Context {
	inv := hostops.Invocation{Cwd: s.facts.WorkingDirectory, CallID: parent, Generation: gen}
	return context.WithValue(hostops.WithInvocation(ctx, inv), callKey{}, &callState{ops: s.ops, readOnly: true})
}

// realDir returns dir, which must be absolute, with its symbolic links
// resolved; what names it in errors.
func realDir(what, dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("plugin: %s %q is not absolute; resolve it once, at the frontend", what, dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("plugin: %s: %w", what, err)
	}
	return real, nil
}

// contains reports whether p is dir or beneath it (both absolute and
// clean).
func contains(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// readOnlyFault is the fault of a write in a read-only scope.
func readOnlyFault(path string) error {
	return pluginabi.FileFault{Case: pluginabi.FileFaultPermissionDenied, PermissionDenied: path}
}
