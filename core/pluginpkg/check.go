package pluginpkg

import (
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/wasmhost"
)

// Deprecation is one entry of the world's deprecation metadata
// (wit/deprecations.kdl, rendered in the plugin reference).
type Deprecation = pluginabi.Deprecation

// Deprecations lists the deprecated and removed items of the world this
// Smith serves.
var Deprecations = pluginabi.Deprecations

// FindingKind classifies a [Finding].
type FindingKind uint8

// The kinds of [Finding]. Only FindingDeprecated leaves the artifact
// loadable.
const (
	// FindingDeprecated: an item still in the world, deprecated; it works
	// until its removal version.
	FindingDeprecated FindingKind = iota + 1
	// FindingRemoved: an item the world no longer has.
	FindingRemoved
	// FindingVersion: the artifact was built for another world version.
	FindingVersion
	// FindingUnknown: a name no world version Smith knows declares.
	FindingUnknown
)

// String names k as `smith plugin check` prints it.
func (k FindingKind) String() string {
	switch k {
	case FindingDeprecated:
		return "deprecated"
	case FindingRemoved:
		return "removed"
	case FindingVersion:
		return "version"
	case FindingUnknown:
		return "unknown"
	}
	return "?"
}

// Finding is one thing an artifact uses that its author must act on.
type Finding struct {
	Kind FindingKind
	// Item is "IFACE.FUNC" (or "IFACE"); Use is the wasm name it comes
	// from: `import "smith:plugin/vcs@0.0.0" "list-turns"`.
	Item, Use string
	// Text says what is wrong; Fix what to do.
	Text, Fix string
	// Migration is the item's deprecation metadata, when it has one.
	Migration *Deprecation
}

// CheckSurface reports what of s — an artifact's imports and exports —
// uses deprecated or removed items of the world, another world version,
// or names no world declares. Imports outside the smith:plugin package
// (WASI) are not its concern. It is safe for concurrent use.
func CheckSurface(s wasmhost.Surface) []Finding {
	return checkSurface(s, pluginabi.WorldSpec(), pluginabi.Deprecations)
}

func checkSurface(s wasmhost.Surface, w wasmhost.WorldSpec, deps []Deprecation) []Finding {
	c := checker{w: w, deps: deps, imports: map[string]bool{}, exports: map[string]bool{}, seen: map[string]bool{}}
	for _, imp := range w.Imports {
		c.imports[imp.Module+" "+imp.Name] = true
	}
	for _, e := range w.Exports {
		c.exports[e.Name] = true
	}
	for _, imp := range s.Imports {
		iface, ver, ok := c.worldName(strings.TrimPrefix(imp.Module, "[export]"))
		if !ok {
			continue
		}
		use := fmt.Sprintf("import %q %q", imp.Module, imp.Name)
		c.check(iface, imp.Name, ver, use, c.imports[imp.Module+" "+imp.Name])
	}
	for _, name := range s.Exports {
		mod, fn, ok := strings.Cut(name, "#")
		if !ok {
			continue
		}
		iface, ver, ok := c.worldName(mod)
		if !ok {
			continue
		}
		c.check(iface, fn, ver, fmt.Sprintf("export %q", name), c.exports[name])
	}
	if c.other != "" {
		c.out = append(c.out, Finding{Kind: FindingVersion, Item: w.Package + "@" + c.other, Use: c.otherUse,
			Text: fmt.Sprintf("the artifact was built for %s@%s; this Smith serves %s@%s", w.Package, c.other, w.Package, w.Version),
			Fix:  fmt.Sprintf("rebuild it against the %s@%s WIT (smith plugin new vendors it), migrating what this check lists", w.Package, w.Version)})
	}
	return c.out
}

// checker is one CheckSurface.
type checker struct {
	w                wasmhost.WorldSpec
	deps             []Deprecation
	imports, exports map[string]bool
	other, otherUse  string          // another world version the artifact targets, and where
	seen             map[string]bool // the deprecation entries already reported
	out              []Finding
}

// worldName splits "smith:plugin/vcs@0.0.0" into "vcs" and "0.0.0".
func (c *checker) worldName(module string) (iface, ver string, ok bool) {
	rest, ok := strings.CutPrefix(module, c.w.Package+"/")
	if !ok {
		return "", "", false
	}
	iface, ver, ok = strings.Cut(rest, "@")
	return iface, ver, ok
}

// check reports one world name: fn of iface at version ver, present
// telling whether this world has it.
func (c *checker) check(iface, fn, ver, use string, present bool) {
	item := iface + "." + fn
	if strings.HasPrefix(fn, "[") {
		item = iface // a resource's function: the interface is what is deprecated
	}
	if d := c.deprecation(item, iface); d != nil {
		if c.seen[d.Item] {
			return
		}
		c.seen[d.Item] = true
		f := Finding{Kind: FindingDeprecated, Item: d.Item, Use: use, Migration: d,
			Text: fmt.Sprintf("deprecated in %s%s", d.Since, removalText(d)), Fix: "use " + d.Replacement + ": " + d.Steps}
		if d.Removed || !present && ver == c.w.Version {
			f.Kind = FindingRemoved
			f.Text = fmt.Sprintf("removed in %s (deprecated in %s)", d.Removal, d.Since)
		}
		c.out = append(c.out, f)
		return
	}
	switch {
	case ver != c.w.Version:
		if c.other == "" {
			c.other, c.otherUse = ver, use
		}
	case !present:
		c.out = append(c.out, Finding{Kind: FindingUnknown, Item: item, Use: use,
			Text: fmt.Sprintf("is not part of world %s@%s, nor an item it deprecated or removed", c.w.Package, c.w.Version),
			Fix:  "remove it, or rebuild against the WIT this Smith vendors (smith plugin new); the reference lists every function"})
	}
}

// deprecation returns the entry for item, or else for its interface.
func (c *checker) deprecation(item, iface string) *Deprecation {
	for _, want := range []string{item, iface} {
		for i := range c.deps {
			if c.deps[i].Item == want {
				return &c.deps[i]
			}
		}
	}
	return nil
}

func removalText(d *Deprecation) string {
	if d.Removal == "" {
		return " (its retirement is not decided)"
	}
	return ", removed in " + d.Removal
}

// Blocking reports whether any of fs keeps the artifact from loading (all
// but deprecations do).
func Blocking(fs []Finding) bool {
	for _, f := range fs {
		if f.Kind != FindingDeprecated {
			return true
		}
	}
	return false
}
