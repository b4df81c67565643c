package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
)

// deprecationsFile is the deprecation metadata of a WIT package, beside its
// .wit files.
const deprecationsFile = "deprecations.kdl"

// deprecation is one entry of deprecations.kdl: an interface ("vcs") or a
// function ("vcs.take-snapshot") of the world that is deprecated (still
// in the world) or removed (gone from it), with what a plugin author
// needs to move off it.
type deprecation struct {
	status      string // "deprecated" or "removed"
	item        string // "vcs" or "vcs.take-snapshot"
	since       string // the world version that deprecated it
	removal     string // the world version without it; "" for a stable one with no retirement decided
	replacement string // what to use instead: an item of the current world
	reason      string // required for a stable (>= 1.0.0) deprecation: the emergency
	steps       string // the migration instructions
	before      string // an example using the item
	after       string // the same example migrated
	at          string // file:line:col, for messages
}

// loadDeprecations reads dir/deprecations.kdl and checks every entry
// against m and the compatibility policy; found is false when the package
// has no such file.
func loadDeprecations(dir string, m *model) (ds []deprecation, found bool, err error) {
	path := filepath.Join(dir, deprecationsFile)
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, errorf("read %s: %w", path, err)
	}
	ds, err = parseDeprecations(path, src, m)
	return ds, true, err
}

// parseDeprecations parses src (the file path) and validates it against
// m; every problem is reported, each with its file:line:col.
func parseDeprecations(path string, src []byte, m *model) ([]deprecation, error) {
	res := kdl.ParseStringWithDiagnostics(string(src), kdl.WithSourceName(path), kdl.WithVersion(kdl.Version2), kdl.WithDuplicateProperties(kdl.DupError))
	var errs []string
	fail := func(l kdl.Location, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s:%d:%d: %s", path, l.Line, l.Column, fmt.Sprintf(format, args...)))
	}
	for _, d := range res.Diagnostics {
		if d.Severity == kdl.SeverityError {
			fail(d.Start, "is not valid KDL 2: %s", d.Message)
		}
	}
	var out []deprecation
	if res.Document != nil && len(errs) == 0 {
		seen := map[string]bool{}
		for _, n := range res.Document.Nodes {
			d, ok := readDeprecation(n, fail)
			if !ok {
				continue
			}
			d.at = fmt.Sprintf("%s:%d:%d", path, n.Location().Line, n.Location().Column)
			if seen[d.item] {
				fail(n.Location(), "%s has a second entry; keep one per item", d.item)
				continue
			}
			seen[d.item] = true
			for _, p := range checkDeprecation(d, m) {
				fail(n.Location(), "%s: %s", d.item, p)
			}
			out = append(out, d)
		}
	}
	if len(errs) > 0 {
		return nil, errorf("%s", strings.Join(errs, "\n"))
	}
	slices.SortFunc(out, func(a, b deprecation) int { return strings.Compare(a.item, b.item) })
	return out, nil
}

// readDeprecation reads one entry:
//
//	deprecated "vcs.take-snapshot" since="0.2.0" removal="0.3.0" {
//	    replacement "vcs.take-checkpoint"
//	    steps "…"
//	    before "…"
//	    after "…"
//	}
func readDeprecation(n *kdl.Node, fail func(kdl.Location, string, ...any)) (deprecation, bool) {
	d := deprecation{status: n.Name()}
	if d.status != "deprecated" && d.status != "removed" {
		fail(n.Location(), "%q is not an entry; write deprecated \"IFACE.FUNC\" since=\"X.Y.Z\" removal=\"X.Y.Z\" { … } or removed …", d.status)
		return d, false
	}
	args := n.Arguments()
	if len(args) != 1 || args[0].Kind() != kdl.String {
		fail(n.Location(), "%s needs one string, the item (\"IFACE\" or \"IFACE.FUNC\")", d.status)
		return d, false
	}
	d.item = args[0].String()
	for _, kv := range n.PropertyEntries() {
		v := kv.Value.String()
		switch kv.Key {
		case "since":
			d.since = v
		case "removal":
			d.removal = v
		default:
			fail(n.Location(), "%s: property %q is not one of since, removal", d.item, kv.Key)
			return d, false
		}
	}
	if c := n.Children(); c != nil {
		for _, f := range c.Nodes {
			fa := f.Arguments()
			if len(fa) != 1 || fa[0].Kind() != kdl.String {
				fail(f.Location(), "%s: %s needs one string", d.item, f.Name())
				continue
			}
			v := strings.TrimSpace(fa[0].String())
			switch f.Name() {
			case "replacement":
				d.replacement = v
			case "reason":
				d.reason = v
			case "steps":
				d.steps = v
			case "before":
				d.before = v
			case "after":
				d.after = v
			default:
				fail(f.Location(), "%s: %q is not a field; use replacement, reason, steps, before, after", d.item, f.Name())
			}
		}
	}
	return d, true
}

// checkDeprecation returns what is wrong with d against m and the policy:
// a pre-1.0 item is removed from exactly the next minor world; a stable
// one names its emergency; a deprecated item is in the world and its
// removal still ahead; a removed one is gone; the replacement exists.
func checkDeprecation(d deprecation, m *model) []string {
	var out []string
	cur, err := parseVersion(m.version)
	if err != nil {
		return []string{err.Error()}
	}
	since, err := parseVersion(d.since)
	if err != nil {
		return []string{"since: " + err.Error()}
	}
	if since.after(cur) {
		out = append(out, fmt.Sprintf("since %s is after the world's version %s", d.since, m.version))
	}
	var removal version
	hasRemoval := d.removal != ""
	if hasRemoval {
		if removal, err = parseVersion(d.removal); err != nil {
			return append(out, "removal: "+err.Error())
		}
	}
	switch {
	case since.major == 0:
		want := version{0, since.minor + 1, 0}
		if !hasRemoval || removal != want {
			out = append(out, fmt.Sprintf("removal must be %s: a pre-1.0 item deprecated in %s stays through its minor line and leaves the next minor world", want, d.since))
		}
	case d.reason == "":
		out = append(out, "a stable (1.0.0 and later) deprecation is an emergency: name it in reason")
	}
	exists := m.hasItem(d.item)
	switch d.status {
	case "deprecated":
		if !exists {
			out = append(out, fmt.Sprintf("is not in world %s@%s; an item already gone is a removed entry", m.pkg, m.version))
		}
		if hasRemoval && !cur.before(removal) {
			out = append(out, fmt.Sprintf("its removal %s has come (the world is %s): delete it from the WIT and make this a removed entry", d.removal, m.version))
		}
	case "removed":
		if exists {
			out = append(out, fmt.Sprintf("is still in world %s@%s; delete it from the WIT, or make this a deprecated entry", m.pkg, m.version))
		}
		if !hasRemoval || cur.before(removal) {
			out = append(out, fmt.Sprintf("a removed entry's removal must have come (the world is %s)", m.version))
		}
	}
	switch {
	case d.replacement == "":
		out = append(out, "replacement is missing: name what to use instead (an item of the world)")
	case !m.hasItem(d.replacement):
		out = append(out, fmt.Sprintf("replacement %q is not in world %s@%s", d.replacement, m.pkg, m.version))
	}
	for _, f := range []struct{ name, v string }{{"steps", d.steps}, {"before", d.before}, {"after", d.after}} {
		if f.v == "" {
			out = append(out, f.name+" is missing: the migration needs instructions and a before/after example")
		}
	}
	return out
}

// hasItem reports whether item ("iface" or "iface.func") is in m.
func (m *model) hasItem(item string) bool {
	name, fn, hasFn := strings.Cut(item, ".")
	for _, in := range m.ifaces {
		if in.name != name {
			continue
		}
		if !hasFn {
			return true
		}
		for _, f := range in.funcs {
			if f.Name == fn {
				return true
			}
		}
	}
	return false
}

// version is a world version.
type version struct{ major, minor, patch int }

func (v version) String() string { return fmt.Sprintf("%d.%d.%d", v.major, v.minor, v.patch) }

func (v version) before(o version) bool {
	return slices.Compare([]int{v.major, v.minor, v.patch}, []int{o.major, o.minor, o.patch}) < 0
}

func (v version) after(o version) bool { return o.before(v) }

// parseVersion parses "X.Y.Z".
func parseVersion(s string) (version, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return version{}, fmt.Errorf("%q is not a world version X.Y.Z", s)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return version{}, fmt.Errorf("%q is not a world version X.Y.Z", s)
		}
		n[i] = v
	}
	return version{n[0], n[1], n[2]}, nil
}

// deprecationOf returns the entry of item, if any.
func deprecationOf(ds []deprecation, item string) (deprecation, bool) {
	for _, d := range ds {
		if d.item == item {
			return d, true
		}
	}
	return deprecation{}, false
}

// genDeprecationDocs renders the reference's section on deprecations.
func genDeprecationDocs(b *strings.Builder, m *model, ds []deprecation) {
	b.WriteString("## Deprecations and removals\n\n")
	b.WriteString("From `" + deprecationsFile + "` in the WIT package. Before 1.0.0 a deprecated item works throughout " +
		"the minor line that deprecated it and is gone from the next minor world (deprecated in 0.2.0, removed in 0.3.0); " +
		"from 1.0.0 on, items are deprecated only in an emergency, which the entry names. `smith plugin check PATH` lists " +
		"the deprecated and removed items a plugin uses, with the migration below; `smith doctor deprecator PATH` asks the " +
		"agent to do it, under the project's usual permissions.\n\n")
	if len(ds) == 0 {
		fmt.Fprintf(b, "No item of %s@%s is deprecated or removed.\n\n", m.pkg, m.version)
		return
	}
	for _, d := range ds {
		fmt.Fprintf(b, "### %s `%s`\n\n", d.status, d.item)
		when := "Deprecated in " + d.since
		if d.removal != "" {
			if d.status == "removed" {
				when += ", removed in " + d.removal
			} else {
				when += ", to be removed in " + d.removal
			}
		}
		fmt.Fprintf(b, "%s. Use `%s` instead.\n\n", when, d.replacement)
		if d.reason != "" {
			fmt.Fprintf(b, "Why: %s\n\n", d.reason)
		}
		fmt.Fprintf(b, "%s\n\nBefore:\n\n```\n%s\n```\n\nAfter:\n\n```\n%s\n```\n\n", d.steps, d.before, d.after)
	}
}

// genDeprecationTable renders the host's table of the entries.
func genDeprecationTable(m *model, ds []deprecation, pkg string) *goFile {
	f := &goFile{pkg: pkg}
	b := &f.body
	b.WriteString("// Deprecation is one entry of the world's deprecation metadata (the WIT\n")
	b.WriteString("// package's " + deprecationsFile + "): an interface (\"vcs\") or a function\n")
	b.WriteString("// (\"vcs.take-snapshot\") that is deprecated, still in the world, or removed.\n")
	b.WriteString("type Deprecation struct {\n")
	b.WriteString("\t// Removed is false while the item is still in the world.\n\tRemoved bool\n")
	b.WriteString("\t// Item is \"IFACE\" or \"IFACE.FUNC\".\n\tItem string\n")
	b.WriteString("\t// Since and Removal are world versions; Removal is \"\" for a stable item whose retirement is not decided.\n\tSince, Removal string\n")
	b.WriteString("\t// Replacement is the item to use instead; Reason the emergency of a stable deprecation.\n\tReplacement, Reason string\n")
	b.WriteString("\t// Steps are the migration instructions; Before and After an example.\n\tSteps, Before, After string\n}\n\n")
	fmt.Fprintf(b, "// Deprecations lists the deprecated and removed items of world %s@%s, by item.\n", m.pkg, m.version)
	b.WriteString("var Deprecations = []Deprecation{\n")
	for _, d := range ds {
		fmt.Fprintf(b, "\t{Removed: %t, Item: %s, Since: %s, Removal: %s, Replacement: %s, Reason: %s, Steps: %s, Before: %s, After: %s},\n",
			d.status == "removed", strconv.Quote(d.item), strconv.Quote(d.since), strconv.Quote(d.removal), strconv.Quote(d.replacement),
			strconv.Quote(d.reason), strconv.Quote(d.steps), strconv.Quote(d.before), strconv.Quote(d.after))
	}
	b.WriteString("}\n")
	return f
}
