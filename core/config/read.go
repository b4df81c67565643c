package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
)

// layerData is what one file (or the env and flag layers) sets.
type layerData struct {
	cfg     Config
	trusted []Setting[string]
	// notes are diagnostics about the file that are not errors.
	notes []string
}

// reader reads one KDL document into a layerData, collecting every error.
type reader struct {
	layer   Layer
	file    string
	name    string // a plugin's name, for plugin layers
	errs    Errors
	secrets []string
	out     layerData
	// first remembers where each singleton node was first set.
	first map[string]kdl.Location
	// date is the file's modification date (YYYY-MM-DD), the provenance
	// date of the models it describes.
	date string
}

// parseDocument reads src, the text of a configuration file (or a plugin's
// contribution) of layer l, named file in messages.
func parseDocument(l Layer, file, name string, src []byte, date string) (layerData, Errors) {
	r := &reader{layer: l, file: file, name: name, first: map[string]kdl.Location{}, date: date}
	r.secrets = literalKeys(src)
	if line, col, deep := tooDeep(src); deep {
		r.errs = append(r.errs, &Error{Source: Source{Layer: l, File: file, Line: line, Col: col, Name: name},
			Problem: fmt.Sprintf("nests blocks or comments deeper than %d levels; a configuration needs three, so check it is the right file", maxDepth)})
		return layerData{}, r.errs
	}
	res := kdl.ParseStringWithDiagnostics(string(src), kdl.WithSourceName(file), kdl.WithVersion(kdl.Version2), kdl.WithDuplicateProperties(kdl.DupError))
	for _, d := range res.Diagnostics {
		if d.Severity != kdl.SeverityError {
			continue
		}
		r.errs = append(r.errs, &Error{Source: r.at(d.Start), Value: r.near(src, d.Start.Line), Problem: "is not valid KDL 2: " + r.scrub(d.Message),
			Example: `model "anthropic/claude-sonnet-4-5" (strings in double quotes, one node per line, blocks in { })`})
	}
	if len(r.errs) > 0 || res.Document == nil {
		return layerData{}, r.errs
	}
	for _, n := range res.Document.Nodes {
		r.top(n)
	}
	return r.out, r.errs
}

// near quotes line n of src for a syntax error, or "" when the line is
// out of range, too long, or could hold a credential.
func (r *reader) near(src []byte, n int) string {
	lines := strings.Split(string(src), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	l := strings.TrimSpace(lines[n-1])
	if l == "" || len(l) > 80 || strings.Contains(l, "key") {
		return ""
	}
	return "near " + strconv.Quote(r.scrub(l))
}

// scrub removes every literal credential of the source from msg.
func (r *reader) scrub(msg string) string {
	for _, s := range r.secrets {
		msg = strings.ReplaceAll(msg, s, "[redacted]")
	}
	return msg
}

func (r *reader) at(l kdl.Location) Source {
	return Source{Layer: r.layer, File: r.file, Line: l.Line, Col: l.Column, Name: r.name}
}

func (r *reader) fail(l kdl.Location, path, value, problem, example string) {
	r.errs = append(r.errs, &Error{Source: r.at(l), Path: path, Value: r.scrub(value), Problem: r.scrub(problem), Example: example})
}

// show renders a value as written in KDL.
func show(v kdl.Value) string {
	switch v.Kind() {
	case kdl.String:
		return strconv.Quote(v.String())
	case kdl.Bool:
		if v.Bool() {
			return "#true"
		}
		return "#false"
	case kdl.Null:
		return "#null"
	case kdl.Int:
		return strconv.Itoa(v.Int())
	}
	if lit, ok := v.Literal(); ok {
		return lit
	}
	return v.String()
}

// userOnly reports whether n is in the user's own file; elsewhere (a
// project's or a plugin's) it records why the node at path is refused —
// why, when given, says what a project could do with it — and returns
// false.
func (r *reader) userOnly(n *kdl.Node, path, why, example string) bool {
	if r.layer == LayerUser {
		return true
	}
	msg := "is read only from your own smith.kdl, never from a project's or a plugin's"
	if why != "" {
		msg += " (" + why + ")"
	}
	r.fail(n.Location(), path, "", msg+"; move it there", example)
	return false
}

// shape checks that n has exactly the arguments and properties allowed,
// no children unless kids, and no type annotations. It reports each
// violation and returns whether n is usable.
func (r *reader) shape(n *kdl.Node, path string, minArgs, maxArgs int, props []string, kids bool, example string) bool {
	ok := true
	if ty, has := n.TypeAnnotation(); has {
		r.fail(n.Location(), path, "("+ty+")", "has a type annotation, which smith.kdl does not use; remove it", example)
		ok = false
	}
	args := n.Arguments()
	switch {
	case len(args) < minArgs:
		r.fail(n.Location(), path, "", fmt.Sprintf("needs %s, got %d", count(minArgs, maxArgs, "value"), len(args)), example)
		ok = false
	case maxArgs >= 0 && len(args) > maxArgs:
		r.fail(args[maxArgs].Location(), path, show(args[maxArgs]), fmt.Sprintf("is one value too many: %s takes %s", n.Name(), count(minArgs, maxArgs, "value")), example)
		ok = false
	}
	for _, a := range args {
		if ty, has := a.TypeAnnotation(); has {
			r.fail(a.Location(), path, "("+ty+")", "has a type annotation, which smith.kdl does not use; remove it", example)
			ok = false
		}
	}
	for i, kv := range n.PropertyEntries() {
		if !slices.Contains(props, kv.Key) {
			loc, _, _ := n.PropertyEntryKeyLocation(i)
			known := "takes no properties"
			if len(props) > 0 {
				known = "takes the properties " + strings.Join(props, ", ")
			}
			r.fail(loc, path, kv.Key+"=", fmt.Sprintf("is not a property of %s, which %s%s", n.Name(), known, suggest(kv.Key, props)), example)
			ok = false
		}
	}
	if c := n.Children(); !kids && c != nil && len(c.Nodes) > 0 {
		r.fail(c.Nodes[0].Location(), path, "", fmt.Sprintf("%s takes no { } block", n.Name()), example)
		ok = false
	}
	return ok
}

func count(lo, hi int, what string) string {
	switch {
	case lo == hi:
		if lo == 1 {
			return "one " + what
		}
		return fmt.Sprintf("%d %ss", lo, what)
	case hi < 0:
		return fmt.Sprintf("at least %d %ss", lo, what)
	}
	return fmt.Sprintf("%d to %d %ss", lo, hi, what)
}

// str returns v's string, reporting a value of another kind.
func (r *reader) str(v kdl.Value, path, example string) (string, bool) {
	if v.Kind() != kdl.String {
		r.fail(v.Location(), path, show(v), "is not a string", example)
		return "", false
	}
	return v.String(), true
}

// once reports a singleton node set twice in one file.
func (r *reader) once(key string, n *kdl.Node, path string) bool {
	if prev, seen := r.first[key]; seen {
		r.fail(n.Location(), path, "", fmt.Sprintf("is set twice in this file (first at line %d); keep one", prev.Line), "")
		return false
	}
	r.first[key] = n.Location()
	return true
}
