package hostfs

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

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
// content hash of each file it read or wrote, to detect stale edits. It is
// safe for concurrent use; Close releases the roots.
type FS struct {
	roots  []root
	mu     sync.Mutex
	seen   map[string][sha256.Size]byte // real root-relative key → content hash
	ignore []gitignore.Pattern          // configured ignores
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
	h := &FS{seen: make(map[string][sha256.Size]byte)}
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
	rel  string // relative to root.dir, slash-cleaned, "." for the root
	abs  string
}

func (t target) key() string { return t.root.dir + "\x00" + t.rel }

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

func (h *FS) remember(t target, sum [sha256.Size]byte) {
	h.mu.Lock()
	h.seen[t.key()] = sum
	h.mu.Unlock()
}

func (h *FS) remembered(t target) ([sha256.Size]byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sum, ok := h.seen[t.key()]
	return sum, ok
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
