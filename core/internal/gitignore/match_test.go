package gitignore

import (
	"slices"
	"strings"
	"testing"
)

// load builds a Matcher from a tree's .gitignore files, parents first.
func load(files map[string]string) *Matcher {
	dirs := make([]string, 0, len(files))
	for d := range files {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs) // a parent sorts before its children
	var m Matcher
	for _, d := range dirs {
		m.Add(d, []byte(files[d]))
	}
	return &m
}

func TestMatchTable(t *testing.T) {
	for _, c := range matchCases {
		t.Run(c.name, func(t *testing.T) {
			if got := load(c.files).Match(c.path, c.dir); got != c.want {
				t.Errorf("files %q, path %q (dir %v): Match = %v, want %v", c.files, c.path, c.dir, got, c.want)
			}
		})
	}
}

func TestMatchEntryIgnoresParents(t *testing.T) {
	m := load(root("build/\n"))
	if m.MatchEntry("build/x.go", false) {
		t.Error("MatchEntry(build/x.go) = true; it must judge the path alone")
	}
	if !m.Match("build/x.go", false) {
		t.Error("Match(build/x.go) = false; the excluded parent must count")
	}
}

func TestAddLineAndDirForms(t *testing.T) {
	tests := []struct {
		name string
		dir  string
		path string
		want bool
	}{
		{name: "empty dir is the root", dir: "", path: "x/a", want: true},
		{name: "dot is the root", dir: ".", path: "x/a", want: true},
		{name: "slashes trimmed", dir: "/d/", path: "d/a", want: true},
		{name: "dir bounds the pattern", dir: "/d/", path: "x/a", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m Matcher
			m.AddLine(tt.dir, "a")
			m.AddLine(tt.dir, "# not a pattern")
			m.AddLine(tt.dir, "")
			m.AddLine(tt.dir, "!")
			m.AddLine(tt.dir, "/   ")
			if m.Len() != 1 {
				t.Fatalf("Len = %d after one pattern, a comment, a blank line and two empty patterns; want 1", m.Len())
			}
			if got := m.Match(tt.path, false); got != tt.want {
				t.Errorf("Match(%q) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

func TestZeroMatcherMatchesNothing(t *testing.T) {
	var m Matcher
	if m.Match("a/b", false) || m.MatchEntry("a", true) {
		t.Error("the zero Matcher matched a path")
	}
}

// realistic is a .gitignore as projects write them (~30 lines).
const realistic = `# Build output
/bin/
/dist/
build/
*.o
*.a
*.so
*.exe
*.test
*.out
coverage.*
# Dependencies
node_modules/
vendor/
.venv/
__pycache__/
*.py[cod]
# Editors
.idea/
.vscode/*
!.vscode/settings.json
*.swp
*~
.DS_Store
# Logs and generated
*.log
!keep.log
logs/**/*.txt
**/gen/*.pb.go
docs/_build/
tmp/
`

func TestMatchDoesNotAllocate(t *testing.T) {
	m := load(map[string]string{"": realistic, "src": "*.gen.go\n!/x.gen.go\n"})
	paths := benchPaths()
	allocs := testing.AllocsPerRun(100, func() {
		for _, p := range paths {
			m.Match(p, strings.HasSuffix(p, "d"))
		}
	})
	if allocs != 0 {
		t.Errorf("Match allocated %v times per run of %d paths; want 0", allocs, len(paths))
	}
}

// benchPaths are paths of depth 3 to 6, some ignored, most not.
func benchPaths() []string {
	return []string{
		"src/core/agent/loop.go",
		"src/core/agent/loop_test.go",
		"src/web/node_modules/react/index.js",
		"cmd/smith/internal/build/main.o",
		"docs/guide/advanced/plugins.md",
		"logs/2024/01/run.txt",
		"api/proto/gen/service.pb.go",
		"src/a/b/c/d/e.go",
		"web/.vscode/settings.json",
		"pkg/x/y/debug.log",
		"pkg/x/y/keep.log",
		"internal/tools/gen/z/main.go",
	}
}

func BenchmarkMatch(b *testing.B) {
	m := load(map[string]string{"": realistic})
	paths := benchPaths()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m.Match(paths[i%len(paths)], false)
	}
}

func BenchmarkMatchEntry(b *testing.B) {
	m := load(map[string]string{"": realistic})
	paths := benchPaths()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m.MatchEntry(paths[i%len(paths)], false)
	}
}
