package hostfs

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// TestReplaceKeepsLinks: writing or editing through a symbolic link to a
// file changes the file it points to and keeps the link; a link that does
// not resolve is refused.
func TestReplaceKeepsLinks(t *testing.T) {
	proj, _ := project(t)
	ctx := context.Background()
	b := filepath.Join(proj, "sub", "b.txt")
	tests := []struct {
		name   string
		target string // of the link proj/link.txt
		do     func(h *FS) (FileHash, error)
		want   string // b.txt afterwards
		err    string
	}{
		{"write through a relative link", "sub/b.txt", func(h *FS) (FileHash, error) {
			r, err := h.Write(ctx, proj, "link.txt", []byte("written\n"))
			return r.File, err
		}, "written\n", ""},
		{"edit through an absolute link", b, func(h *FS) (FileHash, error) {
			r, err := h.Edit(ctx, proj, "link.txt", "sub b", "edited")
			return r.File, err
		}, "edited\n", ""},
		{"a link that does not resolve", "sub/none.txt", func(h *FS) (FileHash, error) {
			r, err := h.Write(ctx, proj, "link.txt", []byte("x"))
			return r.File, err
		}, "sub b\n", "is a symbolic link that does not resolve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(b, []byte("sub b\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(proj, "link.txt")
			_ = os.Remove(link)
			if err := os.Symlink(tt.target, link); err != nil {
				t.Fatal(err)
			}
			h := newFS(t, proj)
			f, err := tt.do(h)
			if tt.err != "" {
				wantErr(t, err, model.MutationNotApplied, tt.err)
			} else if err != nil {
				t.Fatal(err)
			} else if f.Path != b || f.SHA256 != sha256.Sum256([]byte(tt.want)) {
				t.Fatalf("File = %+v; want %s with the new content's hash", f, b)
			}
			if got, _ := os.ReadFile(b); string(got) != tt.want {
				t.Fatalf("b.txt = %q; want %q", got, tt.want)
			}
			if dest, err := os.Readlink(link); err != nil || dest != tt.target {
				t.Fatalf("link.txt now %q, %v; want the link to %s kept", dest, err, tt.target)
			}
		})
	}
}
