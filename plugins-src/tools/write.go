package main

import "github.com/smith-agent/smith/wit/fs"

type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// runWrite replaces or creates a file, creating missing parents.
func runWrite(h host, args, _ string) (string, error) {
	var a writeArgs
	if err := decode("write", args, &a); err != nil {
		return "", err
	}
	n, err := h.WriteFile(a.Path, a.Content, fs.WriteOptions{CreateParents: true})
	if err != nil {
		return "", describe("write", a.Path, err)
	}
	return "Wrote " + plural(int(n), "byte") + " to " + a.Path + ".", nil
}

type editArgs struct {
	Path    string `json:"path"`
	OldText string `json:"old_text"`
	NewText string `json:"new_text"`
}

// runEdit replaces one exact occurrence and returns the diff.
func runEdit(h host, args, _ string) (string, error) {
	var a editArgs
	if err := decode("edit", args, &a); err != nil {
		return "", err
	}
	if a.OldText == a.NewText {
		return "", invalid("edit \"" + a.Path + "\": old_text and new_text are identical, so nothing would change; send the text you want instead")
	}
	res, err := h.EditFile(a.Path, []fs.TextEdit{{OldText: a.OldText, NewText: a.NewText}}, fs.EditOptions{})
	if err != nil {
		return "", describe("edit", a.Path, err)
	}
	return "Edited " + a.Path + " at line " + itoa(int(res.FirstChangedLine)) + ".\n" + res.Diff, nil
}
