package hostfs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadStreamedMatchesWhole: a file over MaxFileBytes is read a window
// at a time by streaming, and every window, count, cut and hash is what
// reading it whole gives.
func TestReadStreamedMatchesWhole(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("é", i%50))
	}
	b.WriteString(strings.Repeat("long ", 30000)) // an overlong last line, no newline
	files := map[string]string{"big.txt": b.String(), "empty.txt": "", "one.txt": "just one", "nl.txt": "\n\n\n"}
	root := writeTree(t, files)
	h := newFS(t, root)
	ctx := context.Background()
	windows := []ReadOptions{
		{}, {Offset: 2999, Limit: 5}, {Offset: 3001}, {Offset: 10, Limit: 3, MaxBytes: 20}, {Offset: 1, MaxBytes: 7},
		{Offset: 3001, MaxBytes: 100}, {Offset: 1500, Limit: 1}, {Offset: 2},
	}
	for name := range files {
		for _, o := range windows {
			t.Run(fmt.Sprintf("%s %+v", name, o), func(t *testing.T) {
				whole, werr := h.Read(ctx, root, name, o)
				streamed := o
				streamed.MaxFileBytes = 1
				got, serr := h.Read(ctx, root, name, streamed)
				if (werr == nil) != (serr == nil) || (werr != nil && werr.Error() != serr.Error()) {
					t.Fatalf("errors differ: whole %v, streamed %v", werr, serr)
				}
				if !reflect.DeepEqual(got, whole) {
					t.Errorf("streamed %+v\nwhole    %+v", brief(got), brief(whole))
				}
			})
		}
	}
}

func brief(r ReadResult) string {
	return fmt.Sprintf("lines %d-%d of %d truncated %v text %d bytes %q… hash %x", r.StartLine, r.EndLine, r.TotalLines, r.Truncated, len(r.Text), r.Text[:min(len(r.Text), 20)], r.File.SHA256[:4])
}

// TestReadStreamedRefusesBinary: a NUL byte anywhere in a streamed file
// refuses it, as reading it whole does.
func TestReadStreamedRefusesBinary(t *testing.T) {
	root := t.TempDir()
	data := []byte(strings.Repeat("text\n", 100000) + "\x00tail\n")
	if err := os.WriteFile(filepath.Join(root, "bin.txt"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	h := newFS(t, root)
	_, err := h.Read(context.Background(), root, "bin.txt", ReadOptions{Limit: 1, MaxFileBytes: 1024})
	if err == nil || !strings.Contains(err.Error(), "is a binary file (NUL byte at offset 500000)") {
		t.Fatalf("err = %v", err)
	}
}

// TestGrepStreamedMatchesWhole: a file over grep's whole-file bound is
// searched as a stream with the same matches, line numbers and cuts, and
// a binary file is skipped either way.
func TestGrepStreamedMatchesWhole(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		switch {
		case i%1000 == 0:
			fmt.Fprintf(&b, "needle %d %s\n", i, strings.Repeat("x", 200_000)) // longer than the stream buffer
		case i%7 == 0:
			b.WriteString("\n")
		default:
			fmt.Fprintf(&b, "line %d needle-%d\n", i, i%3)
		}
	}
	b.WriteString("needle at the end, no newline")
	root := writeTree(t, map[string]string{"a/big.txt": b.String(), "a/small.txt": "one\nneedle-0 two\n", "bin.dat": "\x00needle"})
	h := newFS(t, root)
	ctx := context.Background()
	for _, pattern := range []string{"needle-0", "^needle", "end, no newline$", "^$"} {
		whole, err := h.Grep(ctx, root, pattern, GrepOptions{Limit: 10000})
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := h.Grep(ctx, root, pattern, GrepOptions{Limit: 10000, MaxFileBytes: 64})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(streamed, whole) || len(whole.Matches) == 0 || whole.Skipped != 1 {
			t.Errorf("%q: streamed %d matches (%d skipped), whole %d (%d skipped)", pattern, len(streamed.Matches), streamed.Skipped, len(whole.Matches), whole.Skipped)
		}
	}
}
