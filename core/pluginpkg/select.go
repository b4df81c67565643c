package pluginpkg

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/internal/atomicfile"
	"github.com/smith-agent/smith/core/plugin"
)

// Contributions are the names a plugin's registration declares.
type Contributions struct {
	Tools             []string `json:"tools,omitempty"`
	Commands          []string `json:"commands,omitempty"`
	Prompts           []string `json:"prompts,omitempty"`
	ContextTransforms []string `json:"context_transforms,omitempty"`
	Providers         []string `json:"providers,omitempty"`
}

// named is a declaration with a name, as a registration encodes it.
type named struct{ Name string }

// registration is the part of core/plugin's registration ([plugin.Host.Register])
// that Select and List read.
type registration struct {
	Contributions struct {
		Tools, Commands, Providers, Prompts, ContextTransforms []named
	} `json:"contributions"`
}

// ContributionsOf decodes the names a registration declares; ok is false
// when reg is not one.
func ContributionsOf(reg []byte) (Contributions, bool) {
	var r registration
	if len(reg) == 0 || json.Unmarshal(reg, &r) != nil {
		return Contributions{}, false
	}
	names := func(ns []named) []string {
		var out []string
		for _, n := range ns {
			out = append(out, n.Name)
		}
		return out
	}
	c := r.Contributions
	return Contributions{Tools: names(c.Tools), Commands: names(c.Commands), Prompts: names(c.Prompts),
		ContextTransforms: names(c.ContextTransforms), Providers: names(c.Providers)}, true
}

// kinds lists a Contributions' names by kind, as core/plugin checks them
// for uniqueness across a generation.
func (c Contributions) kinds() [][2]any {
	return [][2]any{{"tool", c.Tools}, {"command", c.Commands}, {"prompt", c.Prompts},
		{"context transform", c.ContextTransforms}, {"provider", c.Providers}}
}

// Register computes a's registration on h and validates it against the
// system plugins sys as core/plugin would load them together (a complete
// Load, which compiles only a). It is the check of an install and of a
// project or --plugin package seen for the first time.
func Register(ctx context.Context, h *plugin.Host, sys []plugin.Artifact, a plugin.Artifact) ([]byte, error) {
	reg, err := h.Register(ctx, a)
	if err != nil {
		return nil, err
	}
	a.Registration = reg
	g, err := h.Load(ctx, append(slices.Clone(sys), a))
	if err != nil {
		return nil, err
	}
	g.Close()
	return reg, nil
}

// RegistrationCache keeps the registrations [Select] computes for
// packages that are not installed (project and --plugin ones), under
// Dir (in the user cache directory), keyed by the artifact's pin and
// grants.
type RegistrationCache struct{ Dir string }

func (rc RegistrationCache) path(a plugin.Artifact) string {
	grants := slices.Clone(a.Grants)
	slices.Sort(grants)
	sum := sha256.Sum256([]byte(plugin.WorldVersion + "\x00" + a.SHA256 + "\x00" + strings.Join(grants, ",")))
	return filepath.Join(rc.Dir, hex.EncodeToString(sum[:16])+".json")
}

// Get returns the cached registration of a, or nil.
func (rc RegistrationCache) Get(a plugin.Artifact) []byte {
	if rc.Dir == "" {
		return nil
	}
	b, err := os.ReadFile(rc.path(a))
	if err != nil {
		return nil
	}
	return b
}

// Put caches reg as a's registration; failures only cost a later miss.
func (rc RegistrationCache) Put(a plugin.Artifact, reg []byte) {
	if rc.Dir == "" || os.MkdirAll(rc.Dir, 0o755) != nil {
		return
	}
	_ = atomicfile.Replace(rc.path(a), reg, 0o644)
}

// Select returns the artifacts of cands to load after the system plugins
// sys, in order, with a note for each candidate skipped: one without a
// registration that register (called for those only; nil skips them)
// fails, or one whose name or any contribution (tool, command, prompt,
// context transform, provider) an earlier plugin already has, which would
// make core/plugin refuse the whole set. The system plugins always load.
func Select(sys []plugin.Artifact, cands []Candidate, register func(plugin.Artifact) ([]byte, error)) ([]plugin.Artifact, []string) {
	if len(cands) == 0 {
		return nil, nil
	}
	owner := map[string]string{} // "kind\x00name" -> plugin
	names := map[string]bool{}
	claim := func(plugin string, c Contributions) {
		for _, k := range c.kinds() {
			for _, n := range k[1].([]string) {
				owner[k[0].(string)+"\x00"+n] = plugin
			}
		}
	}
	for _, a := range sys {
		names[a.Name] = true
		c, _ := ContributionsOf(a.Registration)
		claim(a.Name, c)
	}
	var out []plugin.Artifact
	var notes []string
	for _, cand := range cands {
		a := cand.Artifact
		skip := func(why string) {
			notes = append(notes, fmt.Sprintf("skipped the %s plugin %q (%s): %s", cand.Tier, a.Name, cand.Source, why))
		}
		if names[a.Name] {
			skip(fmt.Sprintf("a plugin named %q is already loaded; rename one of them (name in %s) or disable one: smith plugin disable NAME", a.Name, ManifestFile))
			continue
		}
		c, ok := ContributionsOf(a.Registration)
		if !ok {
			if register == nil {
				skip("it has no registration; install it again with smith plugin install PATH")
				continue
			}
			reg, err := register(a)
			if err != nil {
				skip(strings.TrimPrefix(err.Error(), "plugin: "))
				continue
			}
			a.Registration = reg
			c, _ = ContributionsOf(reg)
		}
		if why := conflict(owner, a.Name, c); why != "" {
			skip(why)
			continue
		}
		names[a.Name] = true
		claim(a.Name, c)
		out = append(out, a)
	}
	return out, notes
}

// conflict returns why name's contributions c clash with those owned
// already, or "".
func conflict(owner map[string]string, name string, c Contributions) string {
	for _, k := range c.kinds() {
		kind := k[0].(string)
		for _, n := range k[1].([]string) {
			if prev, dup := owner[kind+"\x00"+n]; dup {
				return fmt.Sprintf("%s %q is declared by both %q and %q; keep one of them: disable the other (smith plugin disable NAME) or remove it (smith plugin remove NAME)", kind, n, prev, name)
			}
		}
	}
	return ""
}
