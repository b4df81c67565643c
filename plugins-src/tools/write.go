package main

import "github.com/smith-agent/smith/wit/fs"

type writeArgs struct {
	Path    string
	Content string
}

// runWrite replaces or creates a file, creating missing parents.
func runWrite(h host, args, _ string) (string, error) {
	var a writeArgs
	if err := decode("write", args, strField("path", &a.Path), strField("content", &a.Content)); err != nil {
		return "", err
	}
	n, err := h.WriteFile(a.Path, a.Content, fs.WriteOptions{CreateParents: true})
	if err != nil {
		return "", describe("write", a.Path, err)
	}
	return "Wrote " + plural(int(n), "byte") + " to " + a.Path + ".", nil
}

type editArgs struct {
	Path  string
	Edits []fs.TextEdit
}

// decodeEdit reads edit's arguments: one replacement (old_text with
// new_text) or several (edits), never both.
func decodeEdit(args string) (editArgs, error) {
	var a editArgs
	var one fs.TextEdit
	var hasOld, hasNew bool
	err := decode("edit", args,
		strField("path", &a.Path),
		field{name: "old_text", str: &one.OldText, seen: &hasOld},
		field{name: "new_text", str: &one.NewText, seen: &hasNew},
		listField("edits", func(r *reader) error {
			var e fs.TextEdit
			var eOld, eNew bool
			r.object(func(key string) error {
				switch key {
				case "old_text":
					return r.into(field{name: key, str: &e.OldText, seen: &eOld})
				case "new_text":
					return r.into(field{name: key, str: &e.NewText, seen: &eNew})
				}
				return nil
			})
			if r.err == nil && (!eOld || !eNew) {
				return &argError{msg: "edits[" + itoa(len(a.Edits)) + "] needs both old_text and new_text"}
			}
			a.Edits = append(a.Edits, e)
			return nil
		}))
	if err != nil {
		return a, err
	}
	switch {
	case (hasOld || hasNew) && len(a.Edits) > 0:
		return a, invalid("edit: pass either old_text with new_text (one replacement) or edits (several), not both")
	case hasOld != hasNew:
		return a, invalid("edit: old_text and new_text go together; pass both")
	case hasOld:
		a.Edits = []fs.TextEdit{one}
	case len(a.Edits) == 0:
		return a, invalid("edit: nothing to replace; pass old_text with new_text, or a non-empty edits list")
	}
	return a, nil
}

// runEdit applies the replacements, all or none, and returns the diff.
func runEdit(h host, args, _ string) (string, error) {
	a, err := decodeEdit(args)
	if err != nil {
		return "", err
	}
	for i, e := range a.Edits {
		if e.OldText == e.NewText {
			what := "old_text and new_text are"
			if len(a.Edits) > 1 {
				what = "edits[" + itoa(i) + "] has old_text and new_text"
			}
			return "", invalid("edit \"" + a.Path + "\": " + what + " identical, so nothing would change; send the text you want instead")
		}
	}
	res, err := h.EditFile(a.Path, a.Edits, fs.EditOptions{})
	if err != nil {
		return "", describe("edit", a.Path, err)
	}
	n := ""
	if len(a.Edits) > 1 {
		n = " (" + itoa(len(a.Edits)) + " replacements)"
	}
	return "Edited " + a.Path + n + " at line " + itoa(int(res.FirstChangedLine)) + ".\n" + res.Diff, nil
}
