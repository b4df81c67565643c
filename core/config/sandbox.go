package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
	"github.com/smith-agent/smith/core/internal/sandbox"
)

// The options of the process sandbox and of the working roots.
const (
	// KeySandbox is what the commands bash runs may write:
	// "workspace-write" (the default), "read-only" or "off".
	KeySandbox = "sandbox"
	// KeySandboxNetwork is whether those commands may use the network:
	// "allow" (the default) or "deny".
	KeySandboxNetwork = "sandbox-network"
	// KeyRoots are directories besides the working directory that the file
	// tools may read and write and a workspace-write sandbox lets commands
	// write. The flag is FlagAddDir, repeatable.
	KeyRoots = "roots"
	// FlagAddDir adds one root (repeatable; SMITH_ADD_DIRS holds a list
	// separated as PATH is).
	FlagAddDir = "add-dir"
)

// DefaultSandbox is the sandbox mode when none is configured.
const DefaultSandbox = string(sandbox.WorkspaceWrite)

// SandboxMode returns the sandbox mode in force: the configured one, else
// [DefaultSandbox].
func (c *Config) SandboxMode() string {
	if c.Sandbox.IsSet() {
		return c.Sandbox.Value
	}
	return DefaultSandbox
}

// NetworkAllowed reports whether sandboxed commands may use the network:
// the configured sandbox-network, else true.
func (c *Config) NetworkAllowed() bool {
	return !c.SandboxNetwork.IsSet() || c.SandboxNetwork.Value
}

// RootPaths returns the configured roots' absolute paths, in precedence
// order, without repeats.
func (c *Config) RootPaths() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range c.Roots {
		if !seen[r.Value] {
			seen[r.Value] = true
			out = append(out, r.Value)
		}
	}
	return out
}

// parseSandbox checks a sandbox mode; the problem is "" when it is valid.
func parseSandbox(s string) (string, string) {
	m, err := sandbox.ParseMode(s)
	if err != nil {
		return "", `is not a sandbox mode: use "workspace-write", "read-only" or "off"`
	}
	return string(m), ""
}

// parseNetwork reads sandbox-network: allow or deny (also on/off,
// true/false, 1/0).
func parseNetwork(s string) (bool, string) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "allow", "on", "true", "1":
		return true, ""
	case "deny", "off", "false", "0":
		return false, ""
	}
	return false, `is not "allow" or "deny"`
}

// parseRoot resolves a root against dir (the configuration file's
// directory, or the process's working directory for a flag or the
// environment) and checks that it is a directory.
func parseRoot(s, dir string) (string, string) {
	if strings.TrimSpace(s) == "" {
		return "", "is empty; name a directory"
	}
	if strings.HasPrefix(s, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			s = filepath.Join(home, s[2:])
		}
	}
	if !filepath.IsAbs(s) {
		s = filepath.Join(dir, s)
	}
	s = filepath.Clean(s)
	fi, err := os.Stat(s)
	switch {
	case err != nil:
		return "", fmt.Sprintf("is not a directory Smith can read (%s is missing or unreadable); create it, or remove the root", s)
	case !fi.IsDir():
		return "", fmt.Sprintf("is not a directory (%s is a file); name the directory that holds it", s)
	}
	return s, ""
}

// setSandboxOption sets a sandbox option or a root from the environment
// or a flag; ok is false when o is none of them.
func setSandboxOption(cfg *Config, o Option, v string, src Source) (problem string, ok bool) {
	switch o.Flag {
	case KeySandbox:
		m, why := parseSandbox(v)
		if why == "" {
			cfg.Sandbox = Setting[string]{Value: m, Source: src}
		}
		return why, true
	case KeySandboxNetwork:
		b, why := parseNetwork(v)
		if why == "" {
			cfg.SandboxNetwork = Setting[bool]{Value: b, Source: src}
		}
		return why, true
	case FlagAddDir:
		wd, _ := os.Getwd()
		for _, p := range filepath.SplitList(v) {
			r, why := parseRoot(p, wd)
			if why != "" {
				return strconv.Quote(p) + " " + why, true
			}
			cfg.Roots = append(cfg.Roots, Setting[string]{Value: r, Source: src})
		}
		return "", true
	}
	return "", false
}

// sandboxNode reads the sandbox, sandbox-network or roots node.
func (r *reader) sandboxNode(n *kdl.Node, name string) {
	switch name {
	case KeySandbox:
		const ex = `sandbox "workspace-write"`
		if !r.shape(n, name, 1, 1, nil, false, ex) || !r.once(name, n, name) {
			return
		}
		if s, ok := r.str(n.Arg(0), name, ex); ok {
			m, why := parseSandbox(s)
			if why != "" {
				r.fail(n.Arg(0).Location(), name, strconv.Quote(s), why, ex)
				return
			}
			r.out.cfg.Sandbox = Setting[string]{Value: m, Source: r.at(n.Arg(0).Location())}
		}
	case KeySandboxNetwork:
		const ex = `sandbox-network "deny"`
		if !r.shape(n, name, 1, 1, nil, false, ex) || !r.once(name, n, name) {
			return
		}
		v := n.Arg(0)
		var b bool
		switch v.Kind() {
		case kdl.Bool:
			b = v.Bool()
		case kdl.String:
			var why string
			if b, why = parseNetwork(v.String()); why != "" {
				r.fail(v.Location(), name, show(v), why, ex)
				return
			}
		default:
			r.fail(v.Location(), name, show(v), `is not "allow" or "deny"`, ex)
			return
		}
		r.out.cfg.SandboxNetwork = Setting[bool]{Value: b, Source: r.at(v.Location())}
	case KeyRoots:
		const ex = `roots "../shared" "~/notes"`
		if !r.shape(n, name, 1, -1, nil, false, ex) {
			return
		}
		dir := ""
		if r.file != "" {
			dir = filepath.Dir(r.file)
		}
		for _, v := range n.Arguments() {
			s, ok := r.str(v, name, ex)
			if !ok {
				continue
			}
			p, why := parseRoot(s, dir)
			if why != "" {
				r.fail(v.Location(), name, strconv.Quote(s), why, ex)
				continue
			}
			r.out.cfg.Roots = append(r.out.cfg.Roots, Setting[string]{Value: p, Source: r.at(v.Location())})
		}
	}
}

// sandboxRank orders the modes from the most to the least confining.
func sandboxRank(mode string) int {
	switch mode {
	case string(sandbox.ReadOnly):
		return 0
	case string(sandbox.WorkspaceWrite):
		return 1
	}
	return 2
}

// confineProject drops what a project's smith.kdl may not do to the user's
// safety: loosen the sandbox below the mode (or network) the layers under
// it chose, raise their budget (max-cost), or give the tools roots outside
// the project. Each is a note
// naming the file and the way to decide it in the user's own
// configuration.
func confineProject(d *layerData, below *Config, root string) {
	s := &d.cfg
	if s.Sandbox.IsSet() && sandboxRank(s.Sandbox.Value) > sandboxRank(below.SandboxMode()) {
		d.notes = append(d.notes, fmt.Sprintf("ignored sandbox %q from the project's %s: a project may tighten the sandbox, not loosen it (%s is in force); set it in your own smith.kdl or pass --sandbox %s",
			s.Sandbox.Value, s.Sandbox.Source, below.SandboxMode(), s.Sandbox.Value))
		s.Sandbox = Setting[string]{}
	}
	if s.SandboxNetwork.IsSet() && s.SandboxNetwork.Value && !below.NetworkAllowed() {
		d.notes = append(d.notes, fmt.Sprintf("ignored sandbox-network \"allow\" from the project's %s: a project may deny the network, not allow it; set it in your own smith.kdl or pass --sandbox-network allow", s.SandboxNetwork.Source))
		s.SandboxNetwork = Setting[bool]{}
	}
	if s.MaxCost.IsSet() && below.MaxCost.IsSet() && s.MaxCost.Value > below.MaxCost.Value {
		d.notes = append(d.notes, fmt.Sprintf("ignored max-cost from the project's %s: a project may lower the budget, not raise it (%s is in force); set it in your own smith.kdl or pass --max-cost", s.MaxCost.Source, below.maxCostEntry()))
		s.MaxCost = Setting[int64]{}
	}
	confinePermissions(d, below)
	confinePluginBudgets(d, below)
	kept := s.Roots[:0]
	for _, r := range s.Roots {
		if rel, err := filepath.Rel(root, r.Value); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			d.notes = append(d.notes, fmt.Sprintf("ignored root %s from the project's %s: it is outside the project %s; add it in your own smith.kdl (roots) or pass --add-dir %s", r.Value, r.Source, root, r.Value))
			continue
		}
		kept = append(kept, r)
	}
	s.Roots = kept
}

// mergeSandbox lays a higher layer's sandbox settings over cfg's; roots
// add up.
func mergeSandbox(cfg *Config, s Config) {
	if s.Sandbox.IsSet() {
		cfg.Sandbox = s.Sandbox
	}
	if s.SandboxNetwork.IsSet() {
		cfg.SandboxNetwork = s.SandboxNetwork
	}
	cfg.Roots = append(cfg.Roots, s.Roots...)
}

// sandboxEntries lists the sandbox settings, defaults included, for
// [Config.Entries].
func (c *Config) sandboxEntries(add func(path, value string, s Source)) {
	add(KeySandbox, c.SandboxMode(), c.Sandbox.Source)
	network := "allow"
	if !c.NetworkAllowed() {
		network = "deny"
	}
	add(KeySandboxNetwork, network, c.SandboxNetwork.Source)
	for _, r := range c.Roots {
		add(KeyRoots, r.Value, r.Source)
	}
}
