package hostfs

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/smith-agent/smith/core/internal/gitignore"
	"github.com/smith-agent/smith/core/model"
)

// Error is a failed file operation. Mutation says whether the file system
// was changed.
type Error struct {
	Op       string // "read", "write", "edit", "resolve"
	Path     string // the path as given
	Mutation model.Mutation
	Err      error
}

// Error returns "hostfs: OP \"PATH\": CAUSE".
func (e *Error) Error() string {
	return fmt.Sprintf("hostfs: %s %q: %v", e.Op, e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// FS confines file access to a set of allowed roots. It remembers the
// content hash of each file it read or wrote, keyed by the file's real path,
// to detect stale edits; [FS.Recall] and [FS.Doubt] seed that memory from an
// earlier process. It is safe for concurrent use; Close releases the roots.
type FS struct {
	roots  []root
	mu     sync.Mutex
	seen   map[string]memo    // absolute real path → what is known of the content
	ignore *gitignore.Matcher // configured ignores; nil for none
}

// memo is what the FS knows of one file's content.
type memo struct {
	sum     [sha256.Size]byte
	unknown bool // an earlier change may or may not have happened
}

// FileHash identifies a file's content as an operation left it: what
// stale-edit detection remembers.
type FileHash struct {
	// Path is the file's absolute path with symbolic links resolved.
	Path string
	// SHA256 is the hash of the file's whole content.
	SHA256 [sha256.Size]byte
}

type root struct {
	dir string // absolute, cleaned, symlinks resolved
	r   *os.Root
}

// New opens the allowed roots. Each must be an existing directory; its
// symbolic links are resolved once, here.
func New(dirs ...string) (*FS, error) {
	if len(dirs) == 0 {
		return nil, errors.New("hostfs: no allowed roots; pass at least the project directory")
	}
	h := &FS{seen: make(map[string]memo)}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			h.Close()
			return nil, fmt.Errorf("hostfs: allowed root %q: %w", d, err)
		}
		r, err := os.OpenRoot(abs)
		if err != nil {
			h.Close()
			return nil, fmt.Errorf("hostfs: allowed root %q: %w", d, err)
		}
		h.roots = append(h.roots, root{dir: abs, r: r})
	}
	return h, nil
}

// Close releases the roots.
func (h *FS) Close() error {
	var errs []error
	for _, r := range h.roots {
		errs = append(errs, r.r.Close())
	}
	return errors.Join(errs...)
}

// Roots returns the allowed roots (absolute, symlinks resolved).
func (h *FS) Roots() []string {
	out := make([]string, len(h.roots))
	for i, r := range h.roots {
		out[i] = r.dir
	}
	return out
}

// target is a resolved path: the root to go through and the path below it.
type target struct {
	root *root
	rel  string // relative to root.dir: clean, OS separators, "." for the root
	abs  string
}

// fsPath returns rel as an io/fs path (slash-separated, "." for the
// root), the form the walks, the ignore rules and the root's FS take. Only
// the OS separator becomes "/": on Unix a backslash is part of a name.
func (t target) fsPath() string { return filepath.ToSlash(t.rel) }

// resolve maps path, relative to the invocation's working directory cwd, to
// a root and a path beneath it. cwd must be absolute. The check here is
// lexical; symbolic links are resolved by the root on every access.
func (h *FS) resolve(cwd, path string) (target, error) {
	if path == "" {
		return target{}, errors.New("empty path; pass a file path relative to the working directory or absolute")
	}
	if !filepath.IsAbs(cwd) {
		return target{}, fmt.Errorf("working directory %q is not absolute (it comes from the invocation, never the process)", cwd)
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, path)
	}
	abs = filepath.Clean(abs)
	best := -1
	for i, r := range h.roots {
		if within(r.dir, abs) && (best < 0 || len(r.dir) > len(h.roots[best].dir)) {
			best = i
		}
	}
	if best < 0 {
		return target{}, faultf(FaultDenied, "resolves to %s, outside the allowed roots (%s); use a path inside them", abs, strings.Join(h.Roots(), ", "))
	}
	rel, err := filepath.Rel(h.roots[best].dir, abs)
	if err != nil {
		return target{}, err
	}
	return target{root: &h.roots[best], rel: rel, abs: abs}, nil
}

// within reports whether p is dir or beneath it (both clean and absolute).
func within(dir, p string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// remember records that the file whose real path is path now has content
// data and returns what was remembered.
func (h *FS) remember(path string, data []byte) FileHash {
	f := FileHash{Path: path, SHA256: sha256.Sum256(data)}
	h.Recall(f)
	return f
}

// remembered returns what the FS knows of the file whose real path is
// path; ok is false when it knows nothing.
func (h *FS) remembered(path string) (m memo, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m, ok = h.seen[path]
	return m, ok
}

// Recall remembers each file's content hash as if this FS had read or
// written it, later entries winning: it carries the memory of an earlier
// process (the session's recorded effects) into this one, so an edit of a
// file changed since then is refused as stale. Paths must be absolute with
// symbolic links resolved, as [FileHash.Path] is.
func (h *FS) Recall(files ...FileHash) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range files {
		h.seen[f.Path] = memo{sum: f.SHA256}
	}
}

// Doubt marks the content of the file at the absolute path abs as unknown:
// a change to it may or may not have happened (its effect was interrupted).
// An edit of it is refused until it is read or written again. abs is
// resolved as it is now (symbolic links, or only its directory's when the
// file does not exist).
func (h *FS) Doubt(abs string) {
	abs = filepath.Clean(abs)
	path, err := filepath.EvalSymlinks(abs)
	if err != nil {
		path = abs
		if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			path = filepath.Join(dir, filepath.Base(abs))
		}
	}
	h.mu.Lock()
	h.seen[path] = memo{unknown: true}
	h.mu.Unlock()
}

// absolute retargets t when its path goes through an absolute symbolic link,
// which [os.Root] always refuses: the link is resolved now, and the result
// is accepted only if it lies inside a root. The access still goes through
// that root, so a link swapped in the meantime can make it fail, never
// escape. ok is false when t has nothing to retarget.
func (h *FS) absolute(t target, err error) (target, bool) {
	if err == nil || !strings.Contains(err.Error(), "path escapes from parent") {
		return t, false
	}
	real, rerr := filepath.EvalSymlinks(t.abs)
	if rerr != nil { // a file yet to be created: resolve its directory
		dir, derr := filepath.EvalSymlinks(filepath.Dir(t.abs))
		if derr != nil {
			return t, false
		}
		real = filepath.Join(dir, filepath.Base(t.abs))
	}
	if real == t.abs {
		return t, false
	}
	nt, rerr := h.resolve("/", real)
	if rerr != nil {
		return t, false
	}
	return nt, true
}
