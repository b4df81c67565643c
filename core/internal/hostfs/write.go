package hostfs

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/smith-agent/smith/core/model"
)

// WriteResult describes a committed write.
type WriteResult struct {
	// Created reports that the file did not exist before.
	Created bool
	// Bytes is the size written.
	Bytes int
}

// Write replaces (or creates) the file at path with content, creating
// missing parent directories. The replacement is atomic: readers see the
// old or the new content, never a mix. ctx is checked before the commit
// (the rename); a cancelled write leaves the file untouched.
func (h *FS) Write(ctx context.Context, cwd, path string, content []byte) (WriteResult, error) {
	t, err := h.resolve(cwd, path)
	if err != nil {
		return WriteResult{}, &Error{Op: "write", Path: path, Mutation: model.MutationNotApplied, Err: err}
	}
	created, err := h.replace(ctx, t, content, 0o644)
	if nt, ok := h.absolute(t, err); ok {
		created, err = h.replace(ctx, nt, content, 0o644)
	}
	if err != nil {
		return WriteResult{}, &Error{Op: "write", Path: path, Mutation: mutationOf(err), Err: err}
	}
	return WriteResult{Created: created, Bytes: len(content)}, nil
}

// errCommitted wraps failures after the rename: the change is in place.
type errCommitted struct{ err error }

// Error says the change is in place but may not be durable.
func (e errCommitted) Error() string {
	return e.err.Error() + " (the new content is in place but may not be durable)"
}

// Unwrap returns the cause.
func (e errCommitted) Unwrap() error { return e.err }

func mutationOf(err error) model.Mutation {
	var c errCommitted
	if errors.As(err, &c) {
		return model.MutationApplied
	}
	return model.MutationNotApplied
}

// replace writes content to a temporary file beside t, syncs it, renames it
// over t and syncs the directory. It keeps an existing file's permissions.
func (h *FS) replace(ctx context.Context, t target, content []byte, perm os.FileMode) (created bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if t.rel == "." {
		return false, errors.New("is the root directory; name a file")
	}
	dir := filepath.Dir(t.rel)
	if err := t.root.r.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("create parent directories: %w", err)
	}
	info, err := t.root.r.Stat(t.rel)
	switch {
	case err == nil && info.IsDir():
		return false, errors.New("is a directory; name a file")
	case err == nil:
		perm = info.Mode().Perm()
	case errors.Is(err, os.ErrNotExist):
		created = true
	default:
		return false, err
	}
	var nonce [6]byte
	_, _ = rand.Read(nonce[:])
	tmp := filepath.Join(dir, "."+filepath.Base(t.rel)+".smith-"+hex.EncodeToString(nonce[:])+".tmp")
	f, err := t.root.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return false, fmt.Errorf("create temporary file: %w", err)
	}
	cleanup := func(e error) (bool, error) {
		_ = f.Close()
		_ = t.root.r.Remove(tmp)
		return false, e
	}
	if _, err := f.Write(content); err != nil {
		return cleanup(fmt.Errorf("write temporary file: %w", err))
	}
	if err := f.Sync(); err != nil {
		return cleanup(fmt.Errorf("sync temporary file: %w", err))
	}
	if err := f.Close(); err != nil {
		return cleanup(fmt.Errorf("close temporary file: %w", err))
	}
	if err := ctx.Err(); err != nil {
		_ = t.root.r.Remove(tmp)
		return false, err
	}
	if err := t.root.r.Rename(tmp, t.rel); err != nil {
		_ = t.root.r.Remove(tmp)
		return false, fmt.Errorf("replace the file: %w", err)
	}
	h.remember(t, sha256.Sum256(content))
	if d, err := t.root.r.Open(dir); err == nil {
		err = d.Sync()
		_ = d.Close()
		if err != nil {
			return created, errCommitted{fmt.Errorf("sync directory: %w", err)}
		}
	} else {
		return created, errCommitted{fmt.Errorf("open directory to sync it: %w", err)}
	}
	return created, nil
}

// EditResult describes a committed edit.
type EditResult struct {
	// Line is the 1-based line where the replacement starts.
	Line int
	// Bytes is the new file size.
	Bytes int
}

// Edit replaces the single exact occurrence of old with new in the text
// file at path. It fails, changing nothing, when old is empty, missing,
// occurs more than once, when old equals new, or when the file changed
// since this FS last read or wrote it (stale input).
func (h *FS) Edit(ctx context.Context, cwd, path, old, new string) (EditResult, error) {
	fail := func(m model.Mutation, err error) (EditResult, error) {
		return EditResult{}, &Error{Op: "edit", Path: path, Mutation: m, Err: err}
	}
	if old == "" {
		return fail(model.MutationNotApplied, errors.New("the text to replace is empty; quote the exact text to change"))
	}
	if old == new {
		return fail(model.MutationNotApplied, errors.New("the replacement equals the original text; nothing to change"))
	}
	t, err := h.resolve(cwd, path)
	if err != nil {
		return fail(model.MutationNotApplied, err)
	}
	data, err := h.readAll(t, 16<<20)
	if nt, ok := h.absolute(t, err); ok {
		t = nt
		data, err = h.readAll(t, 16<<20)
	}
	if err != nil {
		return fail(model.MutationNotApplied, err)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return fail(model.MutationNotApplied, errors.New("is a binary file; edit only text files"))
	}
	if prev, ok := h.remembered(t); ok && prev != sha256.Sum256(data) {
		return fail(model.MutationNotApplied, errors.New("changed since it was last read; read it again and redo the edit against the current content"))
	}
	text := string(data)
	switch n := strings.Count(text, old); n {
	case 0:
		return fail(model.MutationNotApplied, errors.New("the text to replace was not found; read the file and quote the text exactly, including whitespace"))
	case 1:
	default:
		return fail(model.MutationNotApplied, fmt.Errorf("the text to replace occurs %d times; include more surrounding lines so it matches exactly once", n))
	}
	i := strings.Index(text, old)
	out := text[:i] + new + text[i+len(old):]
	if _, err := h.replace(ctx, t, []byte(out), 0o644); err != nil {
		return fail(mutationOf(err), err)
	}
	return EditResult{Line: strings.Count(text[:i], "\n") + 1, Bytes: len(out)}, nil
}
