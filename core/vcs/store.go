package vcs

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"

	"github.com/smith-agent/smith/core/vcs/internal/object"
)

// ID is a git object id (SHA-1): a snapshot's commit id, or a tree or blob
// id. The zero ID means "none". It marshals as 40 hex digits (an empty
// string for the zero ID).
type ID [20]byte

// String returns the id as 40 lowercase hex digits.
func (id ID) String() string { return hex.EncodeToString(id[:]) }

// IsZero reports whether id is the zero ID.
func (id ID) IsZero() bool { return id == ID{} }

// MarshalText returns the hex form, or nothing for the zero ID.
func (id ID) MarshalText() ([]byte, error) {
	if id.IsZero() {
		return []byte{}, nil
	}
	return []byte(id.String()), nil
}

// UnmarshalText parses 40 hex digits; an empty text is the zero ID.
func (id *ID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*id = ID{}
		return nil
	}
	v, err := ParseID(string(b))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// ParseID parses 40 hex digits.
func ParseID(s string) (ID, error) {
	id, err := object.ParseID(s)
	if err != nil {
		return ID{}, fmt.Errorf("vcs: %v", err)
	}
	return ID(id), nil
}

// DefaultMaxFileSize is the size above which a file is not snapshotted
// when [Options.MaxFileSize] is 0: 16 MiB.
const DefaultMaxFileSize = 16 << 20

// DefaultMaxFiles is [Options.MaxFiles] when 0: 100,000 files.
const DefaultMaxFiles = 100_000

// ErrTooManyFiles is returned (wrapped, with the worktree and the limit)
// by a snapshot or restore of a worktree with more than [Options.MaxFiles]
// tracked files.
var ErrTooManyFiles = errors.New("vcs: too many files to snapshot")

// Options configures a [Store]. The zero value means the defaults.
type Options struct {
	// Ignore holds extra gitignore patterns, read as lines of a
	// .gitignore at the worktree root added before every .gitignore file
	// (so a .gitignore can re-include with "!", as with git's
	// info/exclude). Default: none.
	Ignore []string
	// MaxFileSize is the largest file, in bytes, a snapshot stores;
	// larger files are skipped and listed in [Snapshot.Skipped].
	// Default ([DefaultMaxFileSize]) when 0.
	MaxFileSize int64
	// MaxFiles is the most files a snapshot tracks; a worktree with more
	// (a home directory, a tree of build outputs nobody ignored) fails
	// with [ErrTooManyFiles] rather than copying all of it. Default
	// ([DefaultMaxFiles]) when 0.
	MaxFiles int
	// NoSync skips fsync of new objects, refs and restored files. Only
	// for tests and benchmarks: after a power loss a ref could then
	// name a missing object. Default false (sync).
	NoSync bool
	// Now returns the time written in snapshot commits. Default
	// time.Now.
	Now func() time.Time
}

// Store is a shadow git repository holding snapshots of one worktree. Its
// methods are safe for concurrent use by goroutines and by processes
// sharing the directory: Snapshot, DiffWorktree and Apply take the
// store's lock (smith.lock in the store directory); Log, Head, Diff and the
// Plan methods read immutable objects and atomically replaced refs
// without it.
type Store struct {
	dir      string
	worktree string
	opts     Options
	objs     object.Dir

	mu         sync.Mutex            // serializes mutations in this process
	cached     atomic.Pointer[cache] // the stat and tree cache once read; replaced, never modified
	prevCached atomic.Pointer[cache] // the cache cached replaced
	onOpen     func(rel string)      // test hook: called before a worktree file is opened
	hookMu     sync.Mutex            // serializes onOpen calls
	ignores    []string
}

// gitConfig is the config of the shadow repository: a bare repository in
// the default object format.
const gitConfig = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n"

// Open opens the store at dir, creating the repository layout (HEAD,
// config, objects/, refs/) if dir does not hold one, for snapshots of
// worktree. Both paths are made absolute; worktree must be an existing
// directory. The store must stay private to Smith: git commands that
// repack it (gc, repack) make its objects unreadable here.
func Open(dir, worktree string, opts Options) (*Store, error) {
	adir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("vcs: store directory %q: %w", dir, err)
	}
	awt, err := filepath.Abs(worktree)
	if err != nil {
		return nil, fmt.Errorf("vcs: worktree %q: %w", worktree, err)
	}
	if fi, err := os.Stat(awt); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("vcs: worktree %s is not a directory (%v); pass the project directory", awt, err)
	}
	if opts.MaxFileSize == 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.MaxFileSize < 0 {
		return nil, fmt.Errorf("vcs: MaxFileSize %d is negative; use 0 for the default %d", opts.MaxFileSize, DefaultMaxFileSize)
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	for _, d := range []string{"objects", "refs/heads", "refs/tags", "refs/smith"} {
		if err := os.MkdirAll(filepath.Join(adir, filepath.FromSlash(d)), 0o755); err != nil {
			return nil, fmt.Errorf("vcs: create %s: %w", filepath.Join(adir, d), err)
		}
	}
	s := &Store{dir: adir, worktree: awt, opts: opts, ignores: slices.Clone(opts.Ignore)}
	max := int(opts.MaxFileSize)
	if max < 64<<20 {
		max = 64 << 20 // trees and commits of large worktrees
	}
	s.objs = object.Dir{Path: filepath.Join(adir, "objects"), Sync: !opts.NoSync, Max: max, Defer: &object.Pending{}}
	for name, content := range map[string]string{"HEAD": "ref: refs/heads/main\n", "config": gitConfig} {
		p := filepath.Join(adir, name)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		if err := s.replaceFile(p, []byte(content)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Dir returns the store's directory (the --git-dir for git).
func (s *Store) Dir() string { return s.dir }

// Worktree returns the directory the store snapshots.
func (s *Store) Worktree() string { return s.worktree }

// checkSession reports whether session can be one ref path component:
// 1 to 128 ASCII letters, digits, '_', '.' and '-', starting with a
// letter or digit, with no "..", no trailing "." and no ".lock" suffix.
// (A hand-written check: the equivalent regexp cost 0.7 ms of every
// start's package initialisation.)
func checkSession(session string) error {
	if !refComponent(session) || strings.Contains(session, "..") || strings.HasSuffix(session, ".lock") || strings.HasSuffix(session, ".") {
		return fmt.Errorf("vcs: session id %q is not usable in a ref name; use letters, digits, '-', '_' and '.' (a ULID is fine)", session)
	}
	return nil
}

// refComponent reports whether s is 1–128 of [A-Za-z0-9_.-], the first
// a letter or digit.
func refComponent(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '_' && c != '.' && c != '-') {
			return false
		}
	}
	return true
}

// HeadRef returns the name of the ref holding the session's current
// snapshot: refs/smith/<session>/head.
func HeadRef(session string) string { return "refs/smith/" + session + "/head" }

// SnapshotRef returns the name of the ref of the session's seq-th
// snapshot: refs/smith/<session>/<seq>.
func SnapshotRef(session string, seq int) string {
	return "refs/smith/" + session + "/" + strconv.Itoa(seq)
}

func (s *Store) refPath(name string) string { return filepath.Join(s.dir, filepath.FromSlash(name)) }

// readRef returns the id a loose ref holds, or the zero ID when the ref
// does not exist.
func (s *Store) readRef(name string) (ID, error) {
	b, err := os.ReadFile(s.refPath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return ID{}, nil
	}
	if err != nil {
		return ID{}, fmt.Errorf("vcs: read ref %s: %w", name, err)
	}
	id, err := ParseID(strings.TrimSpace(string(b)))
	if err != nil {
		return ID{}, fmt.Errorf("vcs: ref %s in %s: %v", name, s.dir, err)
	}
	return id, nil
}

// replaceFile writes b to p atomically (temp file + rename).
func (s *Store) replaceFile(p string, b []byte) error {
	tmp, err := s.tempFile(p, b)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("vcs: replace %s: %w", p, err)
	}
	s.syncDir(filepath.Dir(p))
	return nil
}

// tempFile writes b to a new temporary file next to p and returns its name.
func (s *Store) tempFile(p string, b []byte) (string, error) {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("vcs: create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(p)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("vcs: create a temporary file in %s: %w", dir, err)
	}
	name := f.Name()
	_, err = f.Write(b)
	if err == nil && !s.opts.NoSync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(name)
		return "", fmt.Errorf("vcs: write %s: %w", name, err)
	}
	return name, nil
}

func (s *Store) syncDir(dir string) {
	if s.opts.NoSync {
		return
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// writeRef points the ref name at id, atomically.
func (s *Store) writeRef(name string, id ID) error {
	return s.replaceFile(s.refPath(name), []byte(id.String()+"\n"))
}

// publish makes the snapshot commit id durable and names it: the next
// free refs/smith/<session>/<n>, returned, and the session's head. The
// objects written under the lock and the refs' temporary files are
// synced together; then the numbered ref is created exclusively (a hard
// link, so two writers never take the same number), the head renamed
// into place, and their directory synced.
func (s *Store) publish(session string, id ID) (int, error) {
	seqs, err := s.seqs(session)
	if err != nil {
		return 0, err
	}
	n := 1
	if len(seqs) > 0 {
		n = seqs[len(seqs)-1] + 1
	}
	var ss syncSet
	s.addPending(&ss)
	num, err := s.prepareRef(&ss, SnapshotRef(session, n), id)
	if err != nil {
		return 0, err
	}
	defer os.Remove(num.tmp)
	head, err := s.prepareRef(&ss, HeadRef(session), id)
	if err != nil {
		return 0, err
	}
	if err := ss.run(s.opts.NoSync); err != nil {
		_ = os.Remove(head.tmp)
		return 0, err
	}
	for tries := 0; ; tries++ {
		p := s.refPath(SnapshotRef(session, n))
		err := os.Link(num.tmp, p)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			_ = os.Remove(head.tmp)
			return 0, fmt.Errorf("vcs: create ref %s: %w", SnapshotRef(session, n), err)
		}
		if tries == 1000 {
			_ = os.Remove(head.tmp)
			return 0, fmt.Errorf("vcs: could not find a free snapshot number in %s", filepath.Dir(p))
		}
		n++
	}
	if err := s.commitRef(&ss, head); err != nil {
		return 0, err
	}
	if err := ss.run(s.opts.NoSync); err != nil {
		return 0, err
	}
	return n, nil
}

// seqs returns the numbers of the session's snapshot refs, ascending.
func (s *Store) seqs(session string) ([]int, error) {
	ents, err := os.ReadDir(s.refPath("refs/smith/" + session))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vcs: list the snapshots of session %s: %w", session, err)
	}
	var out []int
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil && n > 0 && strconv.Itoa(n) == e.Name() {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// lock serializes mutations across goroutines and processes.
func (s *Store) lock(ctx context.Context) (func(), error) {
	s.mu.Lock()
	lk := flock.New(filepath.Join(s.dir, "smith.lock"))
	ok, err := lk.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil || !ok {
		s.mu.Unlock()
		if err == nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("vcs: lock %s (another Smith is snapshotting or restoring this worktree): %w", lk.Path(), err)
	}
	// Objects are written under the lock and synced together: before a
	// ref names them, and at the latest when the lock is released.
	return func() {
		var ss syncSet
		s.addPending(&ss)
		_ = ss.run(s.opts.NoSync)
		_ = lk.Unlock()
		s.mu.Unlock()
	}, nil
}

// Head returns the session's current snapshot (the last one taken or
// restored to), or the zero ID before its first snapshot.
func (s *Store) Head(session string) (ID, error) {
	if err := checkSession(session); err != nil {
		return ID{}, err
	}
	return s.readRef(HeadRef(session))
}

// Adopt makes id the session's head when the session has none yet: a
// forked session continues from the snapshot its history reached, so its
// first undo goes back to before the fork's last turn. It does nothing
// when the session already has a head; id must be a snapshot commit.
func (s *Store) Adopt(session string, id ID) error {
	head, err := s.Head(session)
	if err != nil || !head.IsZero() {
		return err
	}
	if _, err := s.commit(id); err != nil {
		return err
	}
	return s.writeRef(HeadRef(session), id)
}
