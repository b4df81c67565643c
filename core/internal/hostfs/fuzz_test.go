package hostfs

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve: whatever the path and working directory, a resolved target
// lies lexically inside its root and its relative part never climbs out.
func FuzzResolve(f *testing.F) {
	f.Add("sub", "../a.txt")
	f.Add("", "/etc/passwd")
	f.Add("sub/../..", "x")
	f.Add(".", "a/../../b")
	root := f.TempDir()
	h, err := New(root)
	if err != nil {
		f.Fatal(err)
	}
	defer h.Close()
	dir := h.Roots()[0]
	f.Fuzz(func(t *testing.T, cwd, path string) {
		tg, err := h.resolve(filepath.Join(dir, cwd), path)
		if err != nil {
			return
		}
		if !within(tg.root.dir, tg.abs) {
			t.Fatalf("%q from %q resolved to %s outside %s", path, cwd, tg.abs, tg.root.dir)
		}
		if tg.rel == ".." || strings.HasPrefix(tg.rel, "../") || filepath.IsAbs(tg.rel) {
			t.Fatalf("%q from %q has relative part %q", path, cwd, tg.rel)
		}
	})
}
