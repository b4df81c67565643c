package hostfs

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// TestResultsNameTheFile: read, write and edit return the file's real path
// and the hash of its whole content as the operation left it, also through
// a symbolic link and for a window of the file.
func TestResultsNameTheFile(t *testing.T) {
	proj, _ := project(t)
	h := newFS(t, proj)
	ctx := context.Background()
	if err := os.Symlink("sub", filepath.Join(proj, "alias")); err != nil {
		t.Fatal(err)
	}
	r, err := h.Read(ctx, proj, "alias/b.txt", ReadOptions{Limit: 1, MaxBytes: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := FileHash{Path: filepath.Join(proj, "sub", "b.txt"), SHA256: sha256.Sum256([]byte("sub b\n"))}
	if r.File != want {
		t.Fatalf("read File = %+v; want %+v", r.File, want)
	}
	w, err := h.Write(ctx, filepath.Join(proj, "sub"), "../alias/new.txt", []byte("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (FileHash{Path: filepath.Join(proj, "sub", "new.txt"), SHA256: sha256.Sum256([]byte("new\n"))}); w.File != want {
		t.Fatalf("write File = %+v; want %+v", w.File, want)
	}
	e, err := h.Edit(ctx, proj, "alias/new.txt", "new", "newer")
	if err != nil {
		t.Fatal(err)
	}
	if want := (FileHash{Path: filepath.Join(proj, "sub", "new.txt"), SHA256: sha256.Sum256([]byte("newer\n"))}); e.File != want {
		t.Fatalf("edit File = %+v; want %+v", e.File, want)
	}
}

// TestStaleAcrossSymlinks: the memory is keyed by the real path, so a file
// read through a link and edited under its own name is still checked.
func TestStaleAcrossSymlinks(t *testing.T) {
	proj, _ := project(t)
	h := newFS(t, proj)
	ctx := context.Background()
	if err := os.Symlink("a.txt", filepath.Join(proj, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Read(ctx, proj, "link.txt", ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "a.txt"), []byte("one\ntwo\nthree\nuser\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := h.Edit(ctx, proj, "a.txt", "two", "2")
	wantErr(t, err, model.MutationNotApplied, "changed since it was last read; read it again")
}

// TestRecall: a new FS seeded with what an earlier one read refuses an edit
// of a file changed since, and applies one of a file that is unchanged.
func TestRecall(t *testing.T) {
	proj, _ := project(t)
	ctx := context.Background()
	first := newFS(t, proj)
	ra, err := first.Read(ctx, proj, "a.txt", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := first.Read(ctx, proj, "sub/b.txt", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	changed := "one\ntwo\nthree\nadded by the user\n"
	if err := os.WriteFile(filepath.Join(proj, "a.txt"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}

	fresh := newFS(t, proj)
	if _, err := fresh.Edit(ctx, proj, "a.txt", "two", "2"); err != nil {
		t.Fatalf("an FS that remembers nothing refused the edit: %v", err)
	}
	if err := os.WriteFile(filepath.Join(proj, "a.txt"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}

	h := newFS(t, proj)
	h.Recall(ra.File, rb.File)
	_, err = h.Edit(ctx, proj, "a.txt", "two", "2")
	wantErr(t, err, model.MutationNotApplied, "changed since it was last read; read it again and redo the edit against the current content")
	if b, _ := os.ReadFile(filepath.Join(proj, "a.txt")); string(b) != changed {
		t.Fatalf("the refused edit changed the file to %q", b)
	}
	if _, err := h.Edit(ctx, proj, "sub/b.txt", "sub b", "sub B"); err != nil {
		t.Fatalf("edit of an unchanged file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "sub", "b.txt")); string(b) != "sub B\n" {
		t.Fatalf("b.txt = %q", b)
	}

	// The latest entry for a file wins.
	h2 := newFS(t, proj)
	h2.Recall(ra.File, FileHash{Path: ra.File.Path, SHA256: sha256.Sum256([]byte(changed))})
	if _, err := h2.Edit(ctx, proj, "a.txt", "two", "2"); err != nil {
		t.Fatalf("edit after a later recalled read: %v", err)
	}
}

// TestDoubt: a file whose last change is of unknown outcome cannot be
// edited until it is read (or written) again.
func TestDoubt(t *testing.T) {
	proj, _ := project(t)
	ctx := context.Background()
	tests := []struct {
		name  string
		path  string // absolute path passed to Doubt
		again func(h *FS) error
	}{
		{"read again", filepath.Join(proj, "a.txt"), func(h *FS) error {
			_, err := h.Read(ctx, proj, "a.txt", ReadOptions{})
			return err
		}},
		{"written again, doubted through a symbolic link", filepath.Join(proj, "ln.txt"), func(h *FS) error {
			_, err := h.Write(ctx, proj, "a.txt", []byte("one\ntwo\nthree\n"))
			return err
		}},
	}
	if err := os.Symlink("a.txt", filepath.Join(proj, "ln.txt")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newFS(t, proj)
			h.Doubt(tt.path)
			_, err := h.Edit(ctx, proj, "a.txt", "two", "2")
			wantErr(t, err, model.MutationNotApplied, "may have changed since it was last read: an earlier change to it was interrupted")
			if err := tt.again(h); err != nil {
				t.Fatal(err)
			}
			if _, err := h.Edit(ctx, proj, "a.txt", "two", "2"); err != nil {
				t.Fatalf("edit after the file was known again: %v", err)
			}
			if _, err := h.Edit(ctx, proj, "a.txt", "2", "two"); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("a file created after it was doubted", func(t *testing.T) {
		h := newFS(t, proj)
		if err := os.Symlink("sub", filepath.Join(proj, "alias2")); err != nil {
			t.Fatal(err)
		}
		h.Doubt(filepath.Join(proj, "sub", "gone.txt"))
		if err := os.WriteFile(filepath.Join(proj, "sub", "gone.txt"), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := h.Edit(ctx, proj, "alias2/gone.txt", "x", "y")
		wantErr(t, err, model.MutationNotApplied, "may have changed since it was last read")
	})
}
