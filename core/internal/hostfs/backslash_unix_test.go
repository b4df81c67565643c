//go:build unix

package hostfs

import (
	"context"
	"reflect"
	"testing"
)

// TestBackslashInNames: on Unix a backslash is an ordinary byte of a file
// name, not a separator, so a directory named `a\b` is searched as itself.
func TestBackslashInNames(t *testing.T) {
	root := writeTree(t, map[string]string{`a\b/f.txt`: "needle\n", `a\b/.gitignore`: "*.log\n", `a\b/x.log`: "needle\n", "a/b/g.txt": "needle\n"})
	h := newFS(t, root)
	ctx := context.Background()

	ls, err := h.Ls(ctx, root, `a\b`, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ls.Entries {
		names = append(names, e.Name)
	}
	if want := []string{".gitignore", "f.txt"}; !reflect.DeepEqual(names, want) {
		t.Errorf(`ls a\b = %q, want %q`, names, want)
	}

	find, err := h.Find(ctx, root, `a\b`, "*", FindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".gitignore", "f.txt"}; !reflect.DeepEqual(find.Paths, want) {
		t.Errorf(`find in a\b = %q, want %q`, find.Paths, want)
	}

	grep, err := h.Grep(ctx, root, "needle", GrepOptions{Dir: `a\b`})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, m := range grep.Matches {
		files = append(files, m.Path)
	}
	if want := []string{"f.txt"}; !reflect.DeepEqual(files, want) {
		t.Errorf(`grep in a\b = %q, want %q`, files, want)
	}
}
