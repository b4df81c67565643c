package object

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Mode is a tree entry mode, as git writes it (octal digits, no padding).
type Mode uint32

// The modes of tree entries git accepts under fsck --strict (gitlinks,
// 160000, are never written by snapshots and are rejected).
const (
	ModeFile    Mode = 0o100644
	ModeExec    Mode = 0o100755
	ModeSymlink Mode = 0o120000
	ModeTree    Mode = 0o40000
)

// String returns the mode as git writes it in a tree ("100644", "40000").
func (m Mode) String() string { return fmt.Sprintf("%o", uint32(m)) }

// IsTree reports whether m is a directory.
func (m Mode) IsTree() bool { return m == ModeTree }

// TreeEntry is one entry of a tree object.
type TreeEntry struct {
	Mode Mode
	Name string
	ID   ID
}

// sortName is the key git sorts tree entries by: a tree's name compares as
// if it ended with "/".
func sortName(e TreeEntry) string {
	if e.Mode.IsTree() {
		return e.Name + "/"
	}
	return e.Name
}

// compareEntries orders tree entries the way git does.
func compareEntries(a, b TreeEntry) int { return strings.Compare(sortName(a), sortName(b)) }

// SortTree sorts entries into git's tree order.
func SortTree(entries []TreeEntry) { slices.SortFunc(entries, compareEntries) }

// validName reports whether name may appear in a tree this package writes.
func validName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("tree entry name %q is not allowed", name)
	case strings.EqualFold(name, ".git"):
		return fmt.Errorf("tree entry name %q is reserved by git", name)
	case strings.ContainsAny(name, "/\x00"):
		return fmt.Errorf("tree entry name %q contains '/' or NUL", name)
	}
	return nil
}

func validMode(m Mode) bool {
	switch m {
	case ModeFile, ModeExec, ModeSymlink, ModeTree:
		return true
	}
	return false
}

// EncodeTree returns the content of a tree object holding entries, which it
// sorts into git's order first. Names must be valid path components and
// unique; modes must be one of the Mode constants.
func EncodeTree(entries []TreeEntry) ([]byte, error) {
	SortTree(entries)
	n := 0
	for i, e := range entries {
		if err := validName(e.Name); err != nil {
			return nil, err
		}
		if !validMode(e.Mode) {
			return nil, fmt.Errorf("tree entry %q has mode %o, which is not a file, executable, symlink or tree mode", e.Name, uint32(e.Mode))
		}
		if i > 0 && entries[i-1].Name == e.Name {
			return nil, fmt.Errorf("tree entry name %q appears twice", e.Name)
		}
		n += len(e.Name) + 28
	}
	b := make([]byte, 0, n)
	for _, e := range entries {
		b = append(b, e.Mode.String()...)
		b = append(b, ' ')
		b = append(b, e.Name...)
		b = append(b, 0)
		b = append(b, e.ID[:]...)
	}
	return b, nil
}

// ParseTree parses the content of a tree object. It rejects what
// [EncodeTree] would not write: unknown or zero-padded modes, invalid or
// duplicate names, entries out of git's order, truncated ids.
func ParseTree(b []byte) ([]TreeEntry, error) {
	var out []TreeEntry
	for off := 0; off < len(b); {
		sp := bytes.IndexByte(b[off:], ' ')
		if sp <= 0 || sp > 7 {
			return nil, fmt.Errorf("tree entry at byte %d has no mode", off)
		}
		modeText := b[off : off+sp]
		if modeText[0] == '0' {
			return nil, fmt.Errorf("tree entry at byte %d has a zero-padded mode %q", off, modeText)
		}
		var m Mode
		for _, c := range modeText {
			if c < '0' || c > '7' {
				return nil, fmt.Errorf("tree entry at byte %d has a mode %q that is not octal", off, modeText)
			}
			m = m<<3 | Mode(c-'0')
		}
		if !validMode(m) {
			return nil, fmt.Errorf("tree entry at byte %d has mode %q, which is not a file, executable, symlink or tree mode", off, modeText)
		}
		nameStart := off + sp + 1
		nul := bytes.IndexByte(b[nameStart:], 0)
		if nul < 0 {
			return nil, fmt.Errorf("tree entry at byte %d has no NUL after its name", off)
		}
		name := string(b[nameStart : nameStart+nul])
		if err := validName(name); err != nil {
			return nil, fmt.Errorf("tree entry at byte %d: %v", off, err)
		}
		idStart := nameStart + nul + 1
		if len(b)-idStart < 20 {
			return nil, fmt.Errorf("tree entry %q at byte %d has a truncated id", name, off)
		}
		e := TreeEntry{Mode: m, Name: name, ID: ID(b[idStart : idStart+20])}
		if k := len(out); k > 0 {
			if out[k-1].Name == name {
				return nil, fmt.Errorf("tree entry name %q appears twice", name)
			}
			if compareEntries(out[k-1], e) >= 0 {
				return nil, fmt.Errorf("tree entry %q at byte %d is out of git's order", name, off)
			}
		}
		out = append(out, e)
		off = idStart + 20
	}
	return out, nil
}
