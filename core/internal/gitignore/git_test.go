package gitignore

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The differential tests ask git itself. Paths go to `git check-ignore
// --no-index -v -n -z --stdin` without a trailing "/": git learns that a
// path is a directory by lstat-ing it, so every directory is created as a
// real one. (With a trailing "/", git would see an empty last name, which a
// pattern of only spaces — trimmed to "" — then "matches".) A verdict is
// "ignored" when git names a matching pattern that is not a negation.

// tree is a scenario: the .gitignore files (directory → content) and the
// paths asked (a trailing "/" marks a directory; parents are created).
type tree struct {
	files map[string]string
	paths []string
}

// gitVerdicts builds tr in a fresh repository and returns git's verdict on
// each path: "" when not ignored, else "source:line:pattern".
func gitVerdicts(t *testing.T, tr tree) map[string]string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is not on PATH (%v): the differential test compares the matcher with git check-ignore; install git", err)
	}
	dir := t.TempDir()
	run := func(stdin []byte, args ...string) []byte {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
			"HOME="+dir, "XDG_CONFIG_HOME="+dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
			t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.Bytes())
		}
		return out
	}
	run(nil, "init", "-q", "--template=") // no sample hooks to copy
	for _, p := range tr.paths {
		full := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(p, "/")))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for d, content := range tr.files {
		full := filepath.Join(dir, filepath.FromSlash(d))
		if err := os.MkdirAll(full, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(full, ".gitignore"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var in bytes.Buffer
	for _, p := range tr.paths {
		in.WriteString(strings.TrimSuffix(p, "/"))
		in.WriteByte(0)
	}
	out := run(in.Bytes(), "check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(fields) != 4*len(tr.paths) {
		t.Fatalf("git check-ignore answered %d fields for %d paths; want 4 per path: %q", len(fields), len(tr.paths), out)
	}
	verdicts := make(map[string]string, len(tr.paths))
	for i := 0; i < len(fields); i += 4 {
		source, line, pat, path := fields[i], fields[i+1], fields[i+2], fields[i+3]
		if pat != "" && !strings.HasPrefix(pat, "!") {
			verdicts[path] = source + ":" + line + ":" + pat
		} else {
			verdicts[path] = ""
		}
	}
	return verdicts
}

// compare checks the matcher against git on every path of every tree; it
// returns the number of comparisons and of paths git ignores. With nest, each tree is built in its
// own directory ("t0", "t1", …) of one repository, so that one git process
// answers for all (a .gitignore in a directory works as at a root, only
// below it); otherwise each tree gets a repository of its own.
func compare(t *testing.T, labels []string, trees []tree, nest bool) (n, ignored int) {
	t.Helper()
	if !nest {
		for i := range trees {
			a, b := compareOne(t, labels[i], trees[i], gitVerdicts(t, trees[i]))
			n, ignored = n+a, ignored+b
		}
		return n, ignored
	}
	all := tree{files: map[string]string{}}
	nested := make([]tree, len(trees))
	for i, tr := range trees {
		prefix := fmt.Sprintf("t%d", i)
		nt := tree{files: map[string]string{}}
		for d, content := range tr.files {
			nt.files[strings.TrimSuffix(prefix+"/"+d, "/")] = content
		}
		for _, p := range tr.paths {
			nt.paths = append(nt.paths, prefix+"/"+p)
		}
		nested[i] = nt
		maps.Copy(all.files, nt.files)
		all.paths = append(all.paths, nt.paths...)
	}
	verdicts := gitVerdicts(t, all)
	for i := range nested {
		a, b := compareOne(t, labels[i], nested[i], verdicts)
		n, ignored = n+a, ignored+b
	}
	return n, ignored
}

// compareOne checks the matcher of tr's files against git's verdicts.
func compareOne(t *testing.T, label string, tr tree, verdicts map[string]string) (n, ignored int) {
	t.Helper()
	m := load(tr.files)
	for _, p := range tr.paths {
		path := strings.TrimSuffix(p, "/")
		v, ok := verdicts[path]
		if !ok {
			t.Fatalf("%s: git gave no verdict on %q", label, path)
		}
		if got := m.Match(path, strings.HasSuffix(p, "/")); got != (v != "") {
			t.Errorf("%s: files %q, path %q: Match = %v, git says ignored=%v (%q)", label, tr.files, p, got, v != "", v)
		}
		if v != "" {
			ignored++
		}
	}
	return len(tr.paths), ignored
}

// TestAgainstGitCases asks git about every case of the table: once all
// together, each in a directory of its own, and once each at the root of
// a repository of its own.
func TestAgainstGitCases(t *testing.T) {
	var labels []string
	var trees []tree
	for _, c := range matchCases {
		p := c.path
		if c.dir {
			p += "/"
		}
		labels = append(labels, c.name)
		trees = append(trees, tree{files: c.files, paths: []string{p}})
	}
	compare(t, labels, trees, true)
	if testing.Short() {
		return
	}
	for i := range trees {
		t.Run(labels[i], func(t *testing.T) {
			t.Parallel() // mostly waiting for git processes
			compare(t, labels[i:i+1], trees[i:i+1], false)
		})
	}
}

// TestAgainstGitScenarios compares whole trees with several .gitignore
// files, every path and parent asked.
func TestAgainstGitScenarios(t *testing.T) {
	scenarios := []tree{
		{
			files: map[string]string{
				"":         "*.log\n!keep.log\nbuild/\n/dist\ndocs/*.md\n!docs/README.md\n**/tmp/**\n",
				"src":      "gen_*.go\n!gen_keep.go\n/local/\nsub/x\n",
				"src/deep": "*\n!*.go\n",
			},
			paths: []string{
				"a.log", "keep.log", "x/keep.log", "x/y/a.log", "build/", "build/a.go", "x/build/", "dist/",
				"x/dist", "docs/a.md", "docs/README.md", "docs/x/a.md", "tmp/a", "x/tmp/y/z", "tmp/",
				"src/gen_a.go", "src/gen_keep.go", "src/x/gen_a.go", "src/local/", "src/local/f", "src/x/local/",
				"src/sub/x", "src/a/sub/x", "sub/x", "src/deep/a.txt", "src/deep/b.go", "src/deep/d/", "src/deep/d/c.go",
			},
		},
		{
			files: map[string]string{"": "*\n!*/\n!*.go\nvendor/\n"},
			paths: []string{"a.txt", "a.go", "d/", "d/a.go", "d/a.txt", "vendor/", "vendor/a.go", "d/vendor/", "d/vendor/b.go"},
		},
		{
			files: map[string]string{"": "a/**/b\n**/c/**\nx/**/\n*/y\n/z/*/\n"},
			paths: []string{"a/b", "a/q/b", "a/q/r/b", "q/a/b", "c/d", "q/c/d/e", "c/", "x/", "x/q/", "x/q/r/",
				"q/y", "q/r/y", "y", "z/q/", "z/q/r/", "w/v"},
		},
		{
			files: map[string]string{"": "[a-c]*.txt\n[!a-c]?.md\n[[:upper:]]*\n\\[x]\n[x\n", "n": "[]]\n[!]]x\n"},
			paths: []string{"a.txt", "b1.txt", "d.txt", "d1.md", "a1.md", "Q", "Qa/", "Qa/b", "[x]", "x", "[x",
				"n/]", "n/ax", "n/]x"},
		},
	}
	var labels []string
	for i := range scenarios {
		labels = append(labels, fmt.Sprintf("scenario %d", i))
	}
	n, ignored := compare(t, labels, scenarios, false)
	t.Logf("%d comparisons, %d ignored", n, ignored)
}

// TestAgainstGitRandom compares the matcher with git on seeded random
// patterns and paths.
func TestAgainstGitRandom(t *testing.T) {
	const seed, trees = 20261201, 250
	r := rand.New(rand.NewPCG(seed, 1))
	labels := make([]string, trees)
	random := make([]tree, trees)
	for i := range trees {
		labels[i] = fmt.Sprintf("seed %d tree %d", seed, i)
		random[i] = randomTree(r)
	}
	n, ignored := compare(t, labels, random, true)
	t.Logf("%d comparisons, %d ignored", n, ignored)
	if ignored < n/10 || ignored > n*9/10 {
		t.Errorf("git ignored %d of %d random paths; the generator should give both verdicts often", ignored, n)
	}
}

// names are path elements chosen to collide with the generated patterns.
var names = []string{"a", "b", "c", "ab", "ba", "abc", "a.c", "b.a", ".a", "a b", "a ", "!a", "#a",
	"[a]", "a-b", "A", "Ab", "1", "a1", "*", "?", "a\\b", "x", "xa"}

// tokens are the pieces random patterns are made of.
var tokens = []string{"a", "b", "c", "a", "b", ".", "x", "A", "1", " ", "*", "*", "?", "**", "***",
	"[ab]", "[!a]", "[^b]", "[a-c]", "[]a]", "[[:alpha:]]", "[[:digit:]]", "[\\]]", "[a-]", "[a",
	"\\*", "\\a", "\\ ", "\\", "\\[", "!", "#", "-", "[[:bad:]]", "[[:a]"}

func randomTree(r *rand.Rand) tree {
	var paths []string
	seen := map[string]bool{}
	dirs := map[string]bool{"": true}
	for range 6 + r.IntN(14) {
		depth := 1 + r.IntN(4)
		var parts []string
		for range depth {
			parts = append(parts, names[r.IntN(len(names))])
		}
		for k := 1; k <= depth; k++ {
			p := strings.Join(parts[:k], "/")
			isDir := k < depth || r.IntN(3) == 0
			if isDir {
				dirs[p] = true
			}
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	// A path asked as a file but needed as a parent becomes a directory.
	for i, p := range paths {
		if dirs[p] {
			paths[i] = p + "/"
		}
	}
	dirList := make([]string, 0, len(dirs))
	for d := range dirs {
		dirList = append(dirList, d)
	}
	slices.Sort(dirList)
	files := map[string]string{}
	for range 1 + r.IntN(3) {
		d := ""
		if r.IntN(2) == 0 {
			d = dirList[r.IntN(len(dirList))]
		}
		// Patterns are made from the paths below the .gitignore's
		// directory, relative to it.
		var below []string
		for _, p := range paths {
			if d == "" {
				below = append(below, p)
			} else if rest, ok := strings.CutPrefix(p, d+"/"); ok && rest != "" {
				below = append(below, rest)
			}
		}
		if len(below) == 0 {
			below = paths
		}
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(randomPattern(r, below))
			b.WriteByte('\n')
		}
		files[d] += b.String()
	}
	return tree{files: files, paths: paths}
}

// randomPattern makes a pattern, half of the time from one of the paths
// (its last elements or all of it) with some bytes replaced by wildcards,
// else from random tokens; then adds a random prefix and suffix.
func randomPattern(r *rand.Rand, paths []string) string {
	var b strings.Builder
	switch r.IntN(8) {
	case 0, 1:
		b.WriteByte('!')
	case 2:
		b.WriteByte('/')
	case 3:
		b.WriteString("**/")
	}
	if r.IntN(2) == 0 {
		parts := strings.Split(strings.TrimSuffix(paths[r.IntN(len(paths))], "/"), "/")
		src := strings.Join(parts[r.IntN(len(parts)):], "/")
		for i := 0; i < len(src); i++ {
			if src[i] != '/' && r.IntN(8) == 0 {
				b.WriteString(tokens[r.IntN(len(tokens))])
				continue
			}
			b.WriteByte(src[i])
		}
	} else {
		for s := range 1 + r.IntN(3) {
			if s > 0 {
				b.WriteByte('/')
			}
			for range 1 + r.IntN(3) {
				b.WriteString(tokens[r.IntN(len(tokens))])
			}
		}
	}
	switch r.IntN(6) {
	case 0:
		b.WriteByte('/')
	case 1:
		b.WriteString("  ")
	case 2:
		b.WriteString("/**")
	}
	return b.String()
}
