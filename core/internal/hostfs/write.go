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
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/model"
)

// WriteResult describes a committed write.
type WriteResult struct {
	// Created reports that the file did not exist before.
	Created bool
	// Bytes is the size written.
	Bytes int
	// File is the file's real path and the hash of the content written, as
	// remembered for stale-edit detection.
	File FileHash `json:"-"`
}

// Write replaces (or creates) the file at path with content, creating
// missing parent directories. The replacement is atomic: readers see the
// old or the new content, never a mix. A symbolic link is followed: its
// target (inside the allowed roots) is replaced and the link kept. ctx is
// checked before the commit (the rename); a cancelled write leaves the file
// untouched.
func (h *FS) Write(ctx context.Context, cwd, path string, content []byte) (WriteResult, error) {
	return h.WriteFile(ctx, cwd, path, content, true)
}

// WriteFile is Write with a choice: without createParents a missing parent
// directory is a not-found failure.
func (h *FS) WriteFile(ctx context.Context, cwd, path string, content []byte, createParents bool) (WriteResult, error) {
	t, err := h.resolve(cwd, path)
	if err != nil {
		return WriteResult{}, &Error{Op: "write", Path: path, Mutation: model.MutationNotApplied, Err: err}
	}
	created, file, err := h.replace(ctx, t, content, 0o644, createParents)
	if nt, ok := h.absolute(t, err); ok {
		created, file, err = h.replace(ctx, nt, content, 0o644, createParents)
	}
	if err != nil {
		return WriteResult{}, &Error{Op: "write", Path: path, Mutation: mutationOf(err), Err: err}
	}
	return WriteResult{Created: created, Bytes: len(content), File: file}, nil
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
// over t and syncs the directory. It keeps an existing file's permissions,
// and remembers (and returns) the new content's hash once it is in place.
func (h *FS) replace(ctx context.Context, t target, content []byte, perm os.FileMode, createParents bool) (created bool, file FileHash, err error) {
	if err := ctx.Err(); err != nil {
		return false, file, err
	}
	if t.rel == "." {
		return false, file, errors.New("is the root directory; name a file")
	}
	dir := filepath.Dir(t.rel)
	if createParents {
		if err := t.root.r.MkdirAll(dir, 0o755); err != nil {
			return false, file, fmt.Errorf("create parent directories: %w", err)
		}
	} else if _, err := t.root.r.Stat(dir); err != nil {
		return false, file, fmt.Errorf("parent directory: %w; create it first or allow creating parents", err)
	}
	if info, err := t.root.r.Lstat(t.rel); err == nil && info.Mode()&os.ModeSymlink != 0 {
		// Replace the file the link points to and keep the link: renaming
		// over the link would replace it with a copy and leave its target
		// as it was.
		if t, err = h.linked(t); err != nil {
			return false, file, err
		}
		dir = filepath.Dir(t.rel)
	}
	info, err := t.root.r.Stat(t.rel)
	switch {
	case err == nil && info.IsDir():
		return false, file, errors.New("is a directory; name a file")
	case err == nil:
		perm = info.Mode().Perm()
	case errors.Is(err, os.ErrNotExist):
		created = true
	default:
		return false, file, err
	}
	var nonce [6]byte
	_, _ = rand.Read(nonce[:])
	tmp := filepath.Join(dir, "."+filepath.Base(t.rel)+".smith-"+hex.EncodeToString(nonce[:])+".tmp")
	f, err := t.root.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return false, file, fmt.Errorf("create temporary file: %w", err)
	}
	cleanup := func(e error) (bool, FileHash, error) {
		_ = f.Close()
		_ = t.root.r.Remove(tmp)
		return false, file, e
	}
	if _, err := f.Write(content); err != nil {
		return cleanup(fmt.Errorf("write temporary file: %w", err))
	}
	if err := f.Sync(); err != nil {
		return cleanup(fmt.Errorf("sync temporary file: %w", err))
	}
	// The temporary file's directory is the file's: the rename puts the
	// content there under the file's name (replacing a symbolic link, not
	// its target).
	realDir := filepath.Dir(openPath(f))
	if err := f.Close(); err != nil {
		return cleanup(fmt.Errorf("close temporary file: %w", err))
	}
	if err := ctx.Err(); err != nil {
		_ = t.root.r.Remove(tmp)
		return false, file, err
	}
	if err := t.root.r.Rename(tmp, t.rel); err != nil {
		_ = t.root.r.Remove(tmp)
		return false, file, fmt.Errorf("replace the file: %w", err)
	}
	real := filepath.Join(realDir, filepath.Base(t.rel))
	if !filepath.IsAbs(realDir) {
		real = t.real()
	}
	file = h.remember(real, content)
	if d, err := t.root.r.Open(dir); err == nil {
		err = d.Sync()
		_ = d.Close()
		if err != nil {
			return created, file, errCommitted{fmt.Errorf("sync directory: %w", err)}
		}
	} else {
		return created, file, errCommitted{fmt.Errorf("open directory to sync it: %w", err)}
	}
	return created, file, nil
}

// linked returns the target of the symbolic link at t, which must lie
// inside the allowed roots. The access still goes through the target's
// root, so a link swapped in the meantime can make it fail, never escape.
func (h *FS) linked(t target) (target, error) {
	real, err := filepath.EvalSymlinks(t.abs)
	if err != nil {
		return t, fmt.Errorf("is a symbolic link that does not resolve (%w); write to the path it should point to", err)
	}
	return h.resolve("/", real)
}

// EditResult describes a committed edit.
type EditResult struct {
	// Line is the 1-based line where the first replacement starts.
	Line int
	// Bytes is the new file size.
	Bytes int
	// Before and After are the file's text before and after the edit.
	Before, After string
	// File is the file's real path and the hash of the edited content, as
	// remembered for stale-edit detection.
	File FileHash
}

// TextEdit is one exact replacement.
type TextEdit struct {
	Old, New string
}

// Edit replaces the single exact occurrence of old with new in the text
// file at path; see [FS.EditAll].
func (h *FS) Edit(ctx context.Context, cwd, path, old, new string) (EditResult, error) {
	return h.EditAll(ctx, cwd, path, []TextEdit{{Old: old, New: new}}, 0)
}

// EditAll applies edits to the text file at path, all or none: every Old
// must occur exactly once in the current text, and no two may overlap. It
// fails, changing nothing, when an Old is empty, missing or ambiguous, when
// an edit changes nothing, when the result would exceed maxBytes (0 means
// 16 MiB), when the file changed since this FS last read or wrote it (stale
// input, also as recalled by [FS.Recall]), or when its content is in doubt
// ([FS.Doubt]) until it is read or written again.
func (h *FS) EditAll(ctx context.Context, cwd, path string, edits []TextEdit, maxBytes int) (EditResult, error) {
	fail := func(m model.Mutation, err error) (EditResult, error) {
		return EditResult{}, &Error{Op: "edit", Path: path, Mutation: m, Err: err}
	}
	if maxBytes <= 0 {
		maxBytes = 16 << 20
	}
	if len(edits) == 0 {
		return fail(model.MutationNotApplied, errors.New("no edits; pass at least one replacement"))
	}
	for i, e := range edits {
		if e.Old == "" {
			return fail(model.MutationNotApplied, fmt.Errorf("edit %d: the text to replace is empty; quote the exact text to change", i+1))
		}
		if e.Old == e.New {
			return fail(model.MutationNotApplied, fmt.Errorf("edit %d: the replacement equals the original text; nothing to change", i+1))
		}
	}
	t, err := h.resolve(cwd, path)
	if err != nil {
		return fail(model.MutationNotApplied, err)
	}
	data, real, err := h.readAll(t, 16<<20)
	if nt, ok := h.absolute(t, err); ok {
		t = nt
		data, real, err = h.readAll(t, 16<<20)
	}
	if err != nil {
		return fail(model.MutationNotApplied, err)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return fail(model.MutationNotApplied, faultf(FaultNotText, "is a binary file; edit only text files"))
	}
	if m, ok := h.remembered(real); ok && m.unknown {
		return fail(model.MutationNotApplied, faultf(FaultConflict, "may have changed since it was last read: an earlier change to it was interrupted and may or may not have happened; read it again and redo the edit against the current content"))
	} else if ok && m.sum != sha256.Sum256(data) {
		return fail(model.MutationNotApplied, faultf(FaultConflict, "changed since it was last read; read it again and redo the edit against the current content"))
	}
	text := string(data)
	type span struct{ at, i int }
	spans := make([]span, 0, len(edits))
	for i, e := range edits {
		switch n := strings.Count(text, e.Old); n {
		case 0:
			return fail(model.MutationNotApplied, faultf(FaultConflict, "edit %d: the text to replace was not found; read the file and quote the text exactly, including whitespace", i+1))
		case 1:
		default:
			return fail(model.MutationNotApplied, faultf(FaultConflict, "edit %d: the text to replace occurs %d times; include more surrounding lines so it matches exactly once", i+1, n))
		}
		spans = append(spans, span{at: strings.Index(text, e.Old), i: i})
	}
	slices.SortFunc(spans, func(a, b span) int { return a.at - b.at })
	var out strings.Builder
	prev := 0
	for k, sp := range spans {
		if sp.at < prev {
			return fail(model.MutationNotApplied, faultf(FaultConflict, "edits %d and %d overlap; merge them into one", spans[k-1].i+1, sp.i+1))
		}
		out.WriteString(text[prev:sp.at])
		out.WriteString(edits[sp.i].New)
		prev = sp.at + len(edits[sp.i].Old)
	}
	out.WriteString(text[prev:])
	result := out.String()
	if len(result) > maxBytes {
		return fail(model.MutationNotApplied, tooLarge(int64(maxBytes), "the edited file would be %d bytes, over the %d-byte bound", len(result), maxBytes))
	}
	_, file, err := h.replace(ctx, t, []byte(result), 0o644, false)
	if err != nil {
		return fail(mutationOf(err), err)
	}
	return EditResult{Line: strings.Count(text[:spans[0].at], "\n") + 1, Bytes: len(result), Before: text, After: result, File: file}, nil
}
