package hostfs

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
)

// ignoreTree builds a project whose .gitignore files exercise git's rules
// that the walk must keep: no re-inclusion below an excluded directory,
// re-inclusion of a directory's contents, anchoring to the .gitignore's
// directory, a nested file overriding the root's, and configured patterns
// that a .gitignore negation cannot undo (*.key).
func ignoreTree(t *testing.T) *FS {
	t.Helper()
	root := writeTree(t, map[string]string{
		".gitignore":       "build/\n!build/keep.go\nout/*\n!out/keep.txt\n/top.txt\n*.tmp\n",
		"build/keep.go":    "",
		"build/x.go":       "",
		"out/keep.txt":     "",
		"out/x.txt":        "",
		"top.txt":          "",
		"a.tmp":            "",
		"sub/.gitignore":   "!*.tmp\n/local/\n!*.key\n",
		"a.key":            "",
		"sub/a.key":        "",
		"sub/top.txt":      "",
		"sub/a.tmp":        "",
		"sub/local/f.go":   "",
		"sub/x/local/f.go": "",
		"local/f.go":       "",
		"gen/g.go":         "",
		"sub/gen/g.go":     "",
		"docs/a.md":        "",
		"sub/docs/a.md":    "",
	})
	h := newFS(t, root)
	h.SetIgnore("gen/", "/docs", "  ", "*.key")
	return h
}

func TestIgnoreRulesInFind(t *testing.T) {
	h := ignoreTree(t)
	root := h.Roots()[0]
	ctx := context.Background()
	tests := []struct {
		name, cwd, dir string
		want           []string
	}{
		{
			name: "from the root",
			cwd:  root,
			want: []string{".gitignore", "local/", "local/f.go", "out/", "out/keep.txt", "sub/", "sub/.gitignore",
				"sub/a.tmp", "sub/docs/", "sub/docs/a.md", "sub/top.txt", "sub/x/", "sub/x/local/", "sub/x/local/f.go"},
		},
		{
			name: "from a subdirectory, anchors stay at the root",
			cwd:  filepath.Join(root, "sub"),
			want: []string{".gitignore", "a.tmp", "docs/", "docs/a.md", "top.txt", "x/", "x/local/", "x/local/f.go"},
		},
		{name: "inside an excluded directory", cwd: root, dir: "build", want: nil},
		{name: "inside a directory whose contents are excluded", cwd: root, dir: "out", want: []string{"keep.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := h.Find(ctx, tt.cwd, tt.dir, "*", FindOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Paths, tt.want) {
				t.Errorf("find = %q\nwant   %q", res.Paths, tt.want)
			}
		})
	}
}

func TestIgnoreRulesInLs(t *testing.T) {
	h := ignoreTree(t)
	root := h.Roots()[0]
	tests := []struct {
		name, dir string
		want      []string
	}{
		{name: "excluded directory lists nothing, re-inclusion or not", dir: "build", want: nil},
		{name: "re-included file of excluded contents", dir: "out", want: []string{"keep.txt"}},
		{name: "nested negation and anchor", dir: "sub", want: []string{".gitignore", "a.tmp", "docs", "top.txt", "x"}},
		{name: "below an excluded directory", dir: "sub/local", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := h.Ls(context.Background(), root, tt.dir, 0)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range res.Entries {
				names = append(names, e.Name)
			}
			if !reflect.DeepEqual(names, tt.want) {
				t.Errorf("ls %s = %q, want %q", tt.dir, names, tt.want)
			}
		})
	}
}
