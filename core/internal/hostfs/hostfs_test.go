package hostfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// project makes root/{proj,outside} with a few files and returns the
// project dir (the allowed root) and the outside dir.
func project(t *testing.T) (proj, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj = filepath.Join(base, "proj")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{proj, filepath.Join(proj, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(proj, "a.txt"):        "one\ntwo\nthree\n",
		filepath.Join(proj, "sub", "b.txt"): "sub b\n",
		filepath.Join(outside, "secret"):    "top secret\n",
	}
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proj, outside
}

func newFS(t *testing.T, roots ...string) *FS {
	t.Helper()
	h, err := New(roots...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func wantErr(t *testing.T, err error, m model.Mutation, substr string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v; want a *hostfs.Error", err)
	}
	if e.Mutation != m || !strings.Contains(err.Error(), substr) {
		t.Fatalf("err = %v (mutation %s); want %s and %q", err, e.Mutation, m, substr)
	}
}

func TestPathsResolveAgainstTheInvocationDirectory(t *testing.T) {
	proj, outside := project(t)
	h := newFS(t, proj)
	t.Chdir(outside) // the process directory must not matter
	res, err := h.Read(context.Background(), filepath.Join(proj, "sub"), "b.txt", ReadOptions{})
	if err != nil || res.Text != "sub b\n" {
		t.Fatalf("read sub/b.txt via cwd=sub: %q, %v", res.Text, err)
	}
	res, err = h.Read(context.Background(), filepath.Join(proj, "sub"), "../a.txt", ReadOptions{Limit: 1})
	if err != nil || res.Text != "one\n" {
		t.Fatalf("read ../a.txt from sub: %q, %v", res.Text, err)
	}
	if _, err := h.Read(context.Background(), "sub", "b.txt", ReadOptions{}); err == nil || !strings.Contains(err.Error(), `working directory "sub" is not absolute`) {
		t.Fatalf("relative cwd: %v", err)
	}
}

func TestNoEscape(t *testing.T) {
	proj, outside := project(t)
	mustSymlink := func(target, link string) {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	mustSymlink(filepath.Join(outside, "secret"), filepath.Join(proj, "abs-link"))
	mustSymlink("../outside/secret", filepath.Join(proj, "rel-link"))
	mustSymlink("../outside", filepath.Join(proj, "dir-link"))
	mustSymlink("sub/b.txt", filepath.Join(proj, "inner-link"))
	mustSymlink(filepath.Join(proj, "sub"), filepath.Join(proj, "abs-inner-dir"))
	h := newFS(t, proj)
	ctx := context.Background()

	tests := []struct {
		name, cwd, path, want string
		wantWrite             string // when the write fails otherwise
	}{
		{"dot dot", proj, "../outside/secret", "outside the allowed roots", ""},
		{"absolute outside", proj, filepath.Join(outside, "secret"), "outside the allowed roots", ""},
		{"cwd outside", outside, "secret", "outside the allowed roots", ""},
		{"absolute symlink out", proj, "abs-link", "path escapes from parent", "resolves to " + filepath.Join(outside, "secret") + ", outside the allowed roots"},
		{"absolute symlink out, new file", proj, "dir-link/../../outside/x", "outside the allowed roots", ""},
		{"relative symlink out", proj, "rel-link", "path escapes from parent", "resolves to " + filepath.Join(outside, "secret") + ", outside the allowed roots"},
		{"symlinked dir out", proj, "dir-link/secret", "path escapes from parent", ""},
		{"empty", proj, "", "empty path", ""},
	}
	for _, tt := range tests {
		t.Run("read "+tt.name, func(t *testing.T) {
			_, err := h.Read(ctx, tt.cwd, tt.path, ReadOptions{})
			wantErr(t, err, model.MutationNotApplied, tt.want)
		})
		t.Run("write "+tt.name, func(t *testing.T) {
			_, err := h.Write(ctx, tt.cwd, tt.path, []byte("pwned"))
			if tt.wantWrite == "" {
				tt.wantWrite = tt.want
			}
			wantErr(t, err, model.MutationNotApplied, tt.wantWrite)
		})
	}
	for _, link := range []string{"abs-link", "rel-link"} {
		if fi, err := os.Lstat(filepath.Join(proj, link)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s was replaced: %v, %v", link, fi, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret")); string(b) != "top secret\n" {
		t.Fatalf("outside file changed: %q", b)
	}
	if _, err := h.Write(ctx, proj, "dir-link/new.txt", []byte("x")); err == nil {
		t.Fatal("created a file through a symlinked directory")
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("a file appeared outside the root: %v", err)
	}
	// Symlinks that stay inside the root are followed, relative or absolute.
	if res, err := h.Read(ctx, proj, "inner-link", ReadOptions{}); err != nil || res.Text != "sub b\n" {
		t.Fatalf("inner link: %q, %v", res.Text, err)
	}
	if res, err := h.Read(ctx, proj, "abs-inner-dir/b.txt", ReadOptions{}); err != nil || res.Text != "sub b\n" {
		t.Fatalf("absolute inner link: %q, %v", res.Text, err)
	}
	if _, err := h.Write(ctx, proj, "abs-inner-dir/new.txt", []byte("n")); err != nil {
		t.Fatalf("write through an absolute inner link: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "sub", "new.txt")); string(b) != "n" {
		t.Fatalf("new.txt = %q", b)
	}
}

func TestReadWindows(t *testing.T) {
	proj, _ := project(t)
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("nolf.txt", "x\ny")
	write("empty.txt", "")
	write("long.txt", strings.Repeat("é", 40)+"\nshort\n")
	write("bin.dat", "ab\x00cd")
	write("latin1.txt", "caf\xe9\n")
	h := newFS(t, proj)
	ctx := context.Background()
	tests := []struct {
		name              string
		path              string
		o                 ReadOptions
		text              string
		start, end, total int
		truncated         bool
	}{
		{"whole", "a.txt", ReadOptions{}, "one\ntwo\nthree\n", 1, 3, 3, false},
		{"window", "a.txt", ReadOptions{Offset: 2, Limit: 1}, "two\n", 2, 2, 3, false},
		{"to the end", "a.txt", ReadOptions{Offset: 3, Limit: 10}, "three\n", 3, 3, 3, false},
		{"no final newline", "nolf.txt", ReadOptions{Offset: 2}, "y", 2, 2, 2, false},
		{"empty", "empty.txt", ReadOptions{}, "", 1, 0, 0, false},
		{"byte bound at line boundary", "a.txt", ReadOptions{MaxBytes: 9}, "one\ntwo\n", 1, 2, 3, true},
		{"overlong line cut on a rune", "long.txt", ReadOptions{MaxBytes: 7}, "ééé", 1, 1, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := h.Read(ctx, proj, tt.path, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != tt.text || r.StartLine != tt.start || r.EndLine != tt.end || r.TotalLines != tt.total || r.Truncated != tt.truncated {
				t.Fatalf("got %+v", r)
			}
		})
	}
	errs := []struct {
		name, path string
		o          ReadOptions
		want       string
	}{
		{"binary", "bin.dat", ReadOptions{}, "is a binary file (NUL byte at offset 2)"},
		{"not utf-8", "latin1.txt", ReadOptions{}, "is not valid UTF-8 text"},
		{"directory", "sub", ReadOptions{}, "is a directory; list it with ls instead"},
		{"offset past end", "a.txt", ReadOptions{Offset: 9}, "offset 9 is beyond the end of the file (3 lines)"},
		{"missing", "nope.txt", ReadOptions{}, "no such file"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.Read(ctx, proj, tt.path, tt.o)
			wantErr(t, err, model.MutationNotApplied, tt.want)
		})
	}
}

func TestWriteIsAtomicAndCreatesParents(t *testing.T) {
	proj, _ := project(t)
	h := newFS(t, proj)
	ctx := context.Background()
	res, err := h.Write(ctx, proj, "new/deep/c.txt", []byte("hello"))
	if err != nil || !res.Created || res.Bytes != 5 {
		t.Fatalf("write = %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "new", "deep", "c.txt")); string(b) != "hello" {
		t.Fatalf("content = %q", b)
	}

	// Replacing keeps permissions and swaps the file: a reader holding
	// the old file still sees the old content, never a mix.
	path := filepath.Join(proj, "a.txt")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	old, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	res, err = h.Write(ctx, proj, "a.txt", []byte("replaced\n"))
	if err != nil || res.Created {
		t.Fatalf("replace = %+v, %v", res, err)
	}
	buf := make([]byte, 64)
	n, _ := old.Read(buf)
	if string(buf[:n]) != "one\ntwo\nthree\n" {
		t.Fatalf("old handle sees %q", buf[:n])
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v", info.Mode())
	}
	entries, _ := os.ReadDir(proj)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".smith-") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}

	_, err = h.Write(ctx, proj, "sub", []byte("x"))
	wantErr(t, err, model.MutationNotApplied, "is a directory; name a file")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = h.Write(cctx, proj, "a.txt", []byte("cancelled"))
	wantErr(t, err, model.MutationNotApplied, "context canceled")
	if b, _ := os.ReadFile(path); string(b) != "replaced\n" {
		t.Fatalf("cancelled write changed the file: %q", b)
	}
}

func TestEdit(t *testing.T) {
	proj, _ := project(t)
	h := newFS(t, proj)
	ctx := context.Background()
	res, err := h.Edit(ctx, proj, "a.txt", "two\n", "TWO\n")
	if err != nil || res.Line != 2 {
		t.Fatalf("edit = %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "a.txt")); string(b) != "one\nTWO\nthree\n" {
		t.Fatalf("content = %q", b)
	}
	if err := os.WriteFile(filepath.Join(proj, "dup.txt"), []byte("x = 1\nx = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, old, new, want string
	}{
		{"missing", "a.txt", "four", "4", "the text to replace was not found"},
		{"ambiguous", "dup.txt", "x = 1", "x = 2", "occurs 2 times; include more surrounding lines"},
		{"empty old", "a.txt", "", "x", "the text to replace is empty"},
		{"no change", "a.txt", "one", "one", "the replacement equals the original text"},
		{"directory", "sub", "a", "b", "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.Edit(ctx, proj, tt.path, tt.old, tt.new)
			wantErr(t, err, model.MutationNotApplied, tt.want)
		})
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "dup.txt")); string(b) != "x = 1\nx = 1\n" {
		t.Fatalf("failed edit changed the file: %q", b)
	}
}

// TestEditRejectsStaleInput: a file changed behind Smith's back since it
// read it cannot be edited until it is read again.
func TestEditRejectsStaleInput(t *testing.T) {
	proj, _ := project(t)
	h := newFS(t, proj)
	ctx := context.Background()
	if _, err := h.Read(ctx, proj, "a.txt", ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(proj, "a.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\nthree\nfour\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := h.Edit(ctx, proj, "a.txt", "two", "2")
	wantErr(t, err, model.MutationNotApplied, "changed since it was last read; read it again")
	if _, err := h.Read(ctx, proj, "a.txt", ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Edit(ctx, proj, "a.txt", "two", "2"); err != nil {
		t.Fatalf("edit after re-read: %v", err)
	}
	// Smith's own edits and writes keep the remembered content current.
	if _, err := h.Edit(ctx, proj, "a.txt", "four", "4"); err != nil {
		t.Fatalf("second edit: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one\n2\nthree\n4\n" {
		t.Fatalf("content = %q", b)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(); err == nil || !strings.Contains(err.Error(), "no allowed roots") {
		t.Fatalf("err = %v", err)
	}
	if _, err := New(filepath.Join(t.TempDir(), "missing")); err == nil || !strings.Contains(err.Error(), "hostfs: allowed root") {
		t.Fatalf("err = %v", err)
	}
}

func TestLongestRootWins(t *testing.T) {
	proj, _ := project(t)
	h := newFS(t, proj, filepath.Join(proj, "sub"))
	if _, err := h.Read(context.Background(), filepath.Join(proj, "sub"), "b.txt", ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := h.Roots(); len(got) != 2 || got[1] != filepath.Join(proj, "sub") {
		t.Fatalf("roots = %v", got)
	}
}
