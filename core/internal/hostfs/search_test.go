package hostfs

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// tree builds a project with nested .gitignore files, a .git directory, a
// binary file and a configured-ignore directory, and returns its root.
func tree(t *testing.T) string {
	t.Helper()
	root := writeTree(t, map[string]string{
		".gitignore":          "*.log\nbuild/\n!keep.log\n",
		"src/.gitignore":      "gen_*.go\n",
		"src/main.go":         "package main\n\nfunc main() {\n\tprintln(\"a.b\")\n}\n",
		"src/util.go":         "package main\n\nfunc helper() {}\n",
		"src/gen_x.go":        "func main() // generated\n",
		"src/app.log":         "func main in a log\n",
		"build/out.go":        "func main() {}\n",
		"debug.log":           "func main\n",
		"keep.log":            "kept FUNC MAIN\n",
		".git/config":         "func main\n",
		"bin.dat":             "func main\x00\x01",
		"node_modules/x.js":   "func main\n",
		"docs/readme.md":      "# Readme\n" + strings.Repeat("long ", 200) + "func main\n",
		"docs/deep/nested.md": "nested\n",
	})
	if err := os.Symlink(".", filepath.Join(root, "docs", "loop")); err != nil {
		t.Fatal(err)
	}
	return root
}

// writeTree writes files (slash-separated paths relative to the root, with
// their contents) into a new temporary directory and returns its path,
// symlinks resolved.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func searchFS(t *testing.T) (*FS, string) {
	root := tree(t)
	h := newFS(t, root)
	h.SetIgnore("node_modules", "# a comment", "")
	return h, root
}

func TestLs(t *testing.T) {
	h, root := searchFS(t)
	res, err := h.Ls(context.Background(), root, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range res.Entries {
		n := e.Name
		if e.Dir {
			n += "/"
		}
		names = append(names, n)
	}
	want := []string{".gitignore", "bin.dat", "docs/", "keep.log", "src/"}
	if !reflect.DeepEqual(names, want) || res.Truncated || res.Total != 5 {
		t.Fatalf("ls = %v (total %d, truncated %v); want %v", names, res.Total, res.Truncated, want)
	}
	res, err = h.Ls(context.Background(), filepath.Join(root, "src"), ".", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) != 2 || res.Entries[0].Name != ".gitignore" || res.Entries[1].Name != "main.go" || !res.Truncated || res.Total != 3 {
		t.Fatalf("ls src = %+v", res)
	}
	res, _ = h.Ls(context.Background(), root, "docs", 0)
	if e := res.Entries[1]; e.Name != "loop" || !e.Symlink || e.Dir {
		t.Fatalf("symlink entry = %+v", e)
	}
	_, err = h.Ls(context.Background(), root, "..", 0)
	wantErr(t, err, model.MutationNotApplied, "outside the allowed roots")
	_, err = h.Ls(context.Background(), root, "src/main.go", 0)
	wantErr(t, err, model.MutationNotApplied, "hostfs: ls")
}

func TestFind(t *testing.T) {
	h, root := searchFS(t)
	ctx := context.Background()
	tests := []struct {
		name, cwd, dir, pattern string
		limit                   int
		want                    []string
		truncated               bool
	}{
		{"base name glob", root, "", "*.go", 0, []string{"src/main.go", "src/util.go"}, false},
		{"path glob", root, "", "docs/**/*.md", 0, []string{"docs/deep/nested.md", "docs/readme.md"}, false},
		{"directories marked", root, "", "deep", 0, []string{"docs/deep/"}, false},
		{"negated gitignore", root, "", "*.log", 0, []string{"keep.log"}, false},
		{"ancestor gitignore applies below", filepath.Join(root, "src"), "", "*.log", 0, nil, false},
		{"relative to the search dir", root, "src", "*.go", 0, []string{"main.go", "util.go"}, false},
		{"bounded", root, "", "*", 2, []string{".gitignore", "bin.dat"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := h.Find(ctx, tt.cwd, tt.dir, tt.pattern, FindOptions{Limit: tt.limit})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Paths, tt.want) || res.Truncated != tt.truncated {
				t.Fatalf("find = %v (truncated %v); want %v", res.Paths, res.Truncated, tt.want)
			}
		})
	}
	all, err := h.Find(ctx, root, "", "*", FindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all.Paths {
		if strings.Contains(p, "loop/") || strings.HasPrefix(p, ".git/") || strings.HasPrefix(p, "build") || strings.HasPrefix(p, "node_modules") {
			t.Fatalf("find returned %s", p)
		}
	}
	_, err = h.Find(ctx, root, "", "[", FindOptions{})
	wantErr(t, err, model.MutationNotApplied, `pattern "[" is not a valid glob`)
	_, err = h.Find(ctx, root, "../..", "*", FindOptions{})
	wantErr(t, err, model.MutationNotApplied, "outside the allowed roots")
}

func TestGrep(t *testing.T) {
	h, root := searchFS(t)
	ctx := context.Background()
	type m = Match
	tests := []struct {
		name      string
		cwd       string
		pattern   string
		o         GrepOptions
		want      []Match
		truncated bool
		skipped   int
	}{
		{"regexp, ignores and binary", root, `func main\(`, GrepOptions{}, []m{{"src/main.go", 3, "func main() {"}}, false, 1},
		{"literal", root, `"a.b"`, GrepOptions{Literal: true}, []m{{"src/main.go", 4, "\tprintln(\"a.b\")"}}, false, 1},
		{"ignore case", root, "func main", GrepOptions{IgnoreCase: true, Glob: "*.log"}, []m{{"keep.log", 1, "kept FUNC MAIN"}}, false, 0},
		{"glob and dir", root, "package", GrepOptions{Dir: "src", Glob: "util*"}, []m{{"util.go", 1, "package main"}}, false, 0},
		{"single file", filepath.Join(root, "src"), "func", GrepOptions{Dir: "util.go"}, []m{{"util.go", 3, "func helper() {}"}}, false, 0},
		{"bounded", root, "package", GrepOptions{Limit: 1}, []m{{"src/main.go", 1, "package main"}}, true, 1},
		{"long line cut", root, "func main$", GrepOptions{Dir: "docs", MaxLineBytes: 10}, []m{{"readme.md", 2, "long long …"}}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := h.Grep(ctx, tt.cwd, tt.pattern, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Matches, tt.want) || res.Truncated != tt.truncated || res.Skipped != tt.skipped {
				t.Fatalf("grep = %+v; want %+v truncated=%v skipped=%d", res, tt.want, tt.truncated, tt.skipped)
			}
		})
	}
	errs := []struct {
		name, pattern string
		o             GrepOptions
		want          string
	}{
		{"bad regexp", "(", GrepOptions{}, "is not a valid RE2 regular expression"},
		{"empty", "", GrepOptions{}, "empty pattern"},
		{"bad glob", "x", GrepOptions{Glob: "["}, `glob "[" is not valid`},
		{"escape", "x", GrepOptions{Dir: "../"}, "outside the allowed roots"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.Grep(ctx, root, tt.pattern, tt.o)
			wantErr(t, err, model.MutationNotApplied, tt.want)
		})
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err := h.Grep(cctx, root, "x", GrepOptions{})
	wantErr(t, err, model.MutationNotApplied, "context canceled")
}
