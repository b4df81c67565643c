package vcs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smith-agent/smith/core/internal/gitignore"
	"github.com/smith-agent/smith/core/vcs/internal/index"
	"github.com/smith-agent/smith/core/vcs/internal/object"
)

// Mode is the kind of a tracked file, as git records it in a tree.
type Mode uint32

// The modes of tracked files.
const (
	ModeFile    Mode = Mode(object.ModeFile)    // 100644: a regular file
	ModeExec    Mode = Mode(object.ModeExec)    // 100755: an executable file
	ModeSymlink Mode = Mode(object.ModeSymlink) // 120000: a symlink; its content is the target
)

// String returns the mode in git's octal form ("100644").
func (m Mode) String() string { return strconv.FormatUint(uint64(m), 8) }

// Snapshot describes one snapshot: a commit in the shadow repository.
type Snapshot struct {
	ID      ID     `json:"id"`      // the commit id
	Tree    ID     `json:"tree"`    // its root tree
	Parent  ID     `json:"parent"`  // the session's head when it was taken; zero for the first
	Session string `json:"session"` // the session whose refs hold it
	Seq     int    `json:"seq"`     // its number n in refs/smith/<session>/<n>
	Cause   string `json:"cause"`   // the session entry that caused it
	Time    int64  `json:"time"`    // commit time, Unix seconds
	// The fields below are set by [Store.Snapshot] only.
	Files   int       `json:"files,omitempty"`   // tracked files stored
	Hashed  int       `json:"hashed,omitempty"`  // files read and hashed (the others matched the stat cache)
	Skipped []Skipped `json:"skipped,omitempty"` // files left out, with the reason
	// Reused reports that the worktree matched the session's head, so no
	// commit was made and the head is returned ([SnapshotRequest.Reuse]).
	Reused bool `json:"reused,omitempty"`
}

// Skipped is a worktree file a snapshot left out, and why.
type Skipped struct {
	Path   string `json:"path"` // slash-separated, relative to the worktree
	Size   int64  `json:"size"`
	Reason string `json:"reason"`
}

// SnapshotRequest says what to snapshot for whom.
type SnapshotRequest struct {
	Session string // the session id; required, one ref name component
	Cause   string // the session entry causing the snapshot (e.g. "turn 3 start"); required
	// Reuse returns the session's head instead of a new commit when the
	// worktree's tree equals the head's (Snapshot.Reused is then set).
	// Default false: every call makes a commit.
	Reuse bool
}

// file is a tracked worktree file: a path with its mode and blob id.
type file struct {
	Path string
	Mode Mode
	ID   ID
	Size int64
}

// tempMarker is in the names of the temporary files a restore creates in
// the worktree; a scan never tracks them, and removes those a killed
// restore left.
const tempMarker = ".smith-tmp-"

// racyWindow: a file modified this close to the scan could change again
// without its modification time moving (coarse file system clocks), so its
// stat is not cached and it is hashed again by the next scan.
const racyWindow = 2e9 // ns

// scan walks the worktree and returns its tracked files sorted by path,
// writing the blob of every file the stat cache does not vouch for. The
// caller holds the lock.
func (s *Store) scan(ctx context.Context) ([]file, []Skipped, int, error) {
	if err := s.loadCache(); err != nil {
		return nil, nil, 0, err
	}
	start := time.Now().UnixNano() // the file system's clock, not Options.Now
	w := &walker{s: s, ctx: ctx, fresh: make(map[string]index.Entry, len(s.cache))}
	for _, p := range s.ignores {
		w.m.AddLine("", p)
	}
	if err := w.walk("", s.worktree); err != nil {
		return nil, nil, 0, err
	}
	if err := w.statAll(); err != nil {
		return nil, nil, 0, err
	}
	// Keep only non-racy entries; the cache is rewritten when it changed.
	dirty := len(w.fresh) != len(s.cache) || w.hashed > 0
	for p, e := range w.fresh {
		if e.MTime > start-racyWindow {
			delete(w.fresh, p)
			dirty = true
		}
	}
	s.cache = w.fresh
	if dirty {
		if err := s.saveCache(); err != nil {
			return nil, nil, 0, err
		}
	}
	slices.SortFunc(w.files, func(a, b file) int { return strings.Compare(a.Path, b.Path) })
	return w.files, w.skipped, w.hashed, nil
}

type walker struct {
	s       *Store
	ctx     context.Context
	m       gitignore.Matcher
	files   []file
	skipped []Skipped
	fresh   map[string]index.Entry
	hashed  int
	pending []pending
}

func (w *walker) walk(rel, abs string) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return fmt.Errorf("vcs: read directory %s: %w", abs, err)
	}
	for _, e := range ents {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join(abs, e.Name()))
			if err != nil {
				return fmt.Errorf("vcs: read %s: %w", filepath.Join(abs, e.Name()), err)
			}
			w.m.Add(rel, b)
		}
	}
	for _, e := range ents {
		name := e.Name()
		if strings.Contains(name, tempMarker) {
			if !e.IsDir() {
				// Left by a restore that was killed: scans hold the
				// store's lock, so no restore is writing it now.
				_ = os.Remove(filepath.Join(abs, name))
			}
			continue
		}
		if strings.EqualFold(name, ".git") {
			continue
		}
		p := name
		if rel != "" {
			p = rel + "/" + name
		}
		full := filepath.Join(abs, name)
		if e.IsDir() {
			if full == w.s.dir || w.m.MatchEntry(p, true) {
				continue
			}
			if err := w.walk(p, full); err != nil {
				return err
			}
			continue
		}
		if w.m.MatchEntry(p, false) {
			continue
		}
		if len(w.pending) >= w.s.opts.MaxFiles {
			return w.tooMany()
		}
		w.pending = append(w.pending, pending{p: p, full: full, e: e})
	}
	return nil
}

// pending is a file the walk found, to stat and add.
type pending struct {
	p, full string
	e       fs.DirEntry
	fi      fs.FileInfo
	err     error
}

// statAll stats the pending files a directory at a time, on as many
// goroutines as there are CPUs (a stat is a system call; most of an
// incremental scan is stats), then adds them in walk order.
func (w *walker) statAll() error {
	var runs [][]pending // the pending files, cut where the directory changes
	for i := 0; i < len(w.pending); {
		j := i + 1
		dir := filepath.Dir(w.pending[i].full)
		for j < len(w.pending) && j-i < 512 && filepath.Dir(w.pending[j].full) == dir {
			j++
		}
		runs = append(runs, w.pending[i:j])
		i = j
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 8, len(runs)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(runs) || w.ctx.Err() != nil {
					return
				}
				statFiles(filepath.Dir(runs[i][0].full), runs[i])
			}
		})
	}
	wg.Wait()
	if err := w.ctx.Err(); err != nil {
		return err
	}
	for _, f := range w.pending {
		if errors.Is(f.err, fs.ErrNotExist) {
			continue // removed while walking
		}
		if f.err != nil {
			return fmt.Errorf("vcs: stat %s: %w", f.full, f.err)
		}
		if err := w.add(f.p, f.full, f.fi); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) tooMany() error {
	return fmt.Errorf("%w: %s has more than %d files that are not ignored; add the bulky directories to .gitignore (or to ignore in smith.kdl)", ErrTooManyFiles, w.s.worktree, w.s.opts.MaxFiles)
}

// add records one non-directory entry.
func (w *walker) add(p, full string, fi fs.FileInfo) error {
	var mode Mode
	switch t := fi.Mode(); {
	case t.Type() == fs.ModeSymlink:
		mode = ModeSymlink
	case t.IsRegular() && t.Perm()&0o100 != 0:
		mode = ModeExec
	case t.IsRegular():
		mode = ModeFile
	default:
		w.skipped = append(w.skipped, Skipped{Path: p, Size: fi.Size(), Reason: "not a regular file, directory or symlink"})
		return nil
	}
	max := w.s.opts.MaxFileSize
	if mode != ModeSymlink && fi.Size() > max {
		w.skipped = append(w.skipped, Skipped{Path: p, Size: fi.Size(), Reason: fmt.Sprintf("larger than the limit of %d bytes", max)})
		return nil
	}
	ctime, ino := statExtra(fi)
	st := index.Entry{Path: p, Mode: uint32(mode), Size: fi.Size(), MTime: fi.ModTime().UnixNano(), CTime: ctime, Ino: ino}
	if old, ok := w.s.cache[p]; ok && old.Same(st) {
		w.fresh[p] = old
		w.files = append(w.files, file{Path: p, Mode: mode, ID: ID(old.ID), Size: st.Size})
		return nil
	}
	var content []byte
	if mode == ModeSymlink {
		target, err := os.Readlink(full)
		if err != nil {
			return fmt.Errorf("vcs: read symlink %s: %w", full, err)
		}
		content = []byte(target)
	} else {
		b, skip, err := w.read(p, full, st)
		if err != nil || skip != "" {
			if skip != "" {
				w.skipped = append(w.skipped, Skipped{Path: p, Size: fi.Size(), Reason: skip})
			}
			return err
		}
		content = b
	}
	id, _, err := w.s.objs.Write(object.TypeBlob, content)
	if err != nil {
		return fmt.Errorf("vcs: store %s: %w", full, err)
	}
	w.hashed++
	st.ID = id
	w.fresh[p] = st
	w.files = append(w.files, file{Path: p, Mode: mode, ID: ID(id), Size: int64(len(content))})
	return nil
}

// read returns a regular file's content without following a symlink that
// replaced it since the walk saw it; skip is the reason to leave it out.
func (w *walker) read(p, full string, st index.Entry) ([]byte, string, error) {
	if w.s.onOpen != nil {
		w.s.onOpen(p)
	}
	f, err := os.OpenFile(full, os.O_RDONLY|openNoFollow, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "removed during the snapshot", nil
	}
	if err != nil {
		return nil, fmt.Sprintf("cannot be opened: %v", err), nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, "changed type during the snapshot", nil
	}
	max := w.s.opts.MaxFileSize
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, "", fmt.Errorf("vcs: read %s: %w", full, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Sprintf("larger than the limit of %d bytes", max), nil
	}
	return b, "", nil
}

func (s *Store) indexPath() string { return filepath.Join(s.dir, "smith-index") }

// loadCache reads the stat cache once; an unreadable one is empty.
func (s *Store) loadCache() error {
	if s.loaded {
		return nil
	}
	s.loaded = true
	s.cache = map[string]index.Entry{}
	b, err := os.ReadFile(s.indexPath())
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("vcs: read the stat cache %s: %w", s.indexPath(), err)
	}
	wt, entries, err := index.Parse(b)
	if err != nil || wt != s.worktree {
		return nil // a corrupt or foreign cache only costs rehashing
	}
	for _, e := range entries {
		s.cache[e.Path] = e
	}
	return nil
}

func (s *Store) saveCache() error {
	entries := make([]index.Entry, 0, len(s.cache))
	for _, e := range s.cache {
		entries = append(entries, e)
	}
	b, err := index.Encode(s.worktree, entries)
	if err != nil {
		return fmt.Errorf("vcs: encode the stat cache: %w", err)
	}
	// The cache is never synced: losing it only costs rehashing.
	tmp, err := os.CreateTemp(s.dir, ".smith-index.tmp-*")
	if err != nil {
		return fmt.Errorf("vcs: write the stat cache in %s: %w", s.dir, err)
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.indexPath())
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("vcs: write the stat cache %s: %w", s.indexPath(), err)
	}
	return nil
}

// writeTree stores the trees of files (sorted by path) and returns the
// root tree id.
func (s *Store) writeTree(files []file) (ID, error) {
	type dir struct {
		entries []object.TreeEntry
		subdirs map[string]*dir
		order   []string
	}
	root := &dir{subdirs: map[string]*dir{}}
	for _, f := range files {
		d := root
		parts := strings.Split(f.Path, "/")
		for _, name := range parts[:len(parts)-1] {
			sub, ok := d.subdirs[name]
			if !ok {
				sub = &dir{subdirs: map[string]*dir{}}
				d.subdirs[name] = sub
				d.order = append(d.order, name)
			}
			d = sub
		}
		d.entries = append(d.entries, object.TreeEntry{Mode: object.Mode(f.Mode), Name: parts[len(parts)-1], ID: object.ID(f.ID)})
	}
	var write func(d *dir) (object.ID, error)
	write = func(d *dir) (object.ID, error) {
		for _, name := range d.order {
			id, err := write(d.subdirs[name])
			if err != nil {
				return id, err
			}
			d.entries = append(d.entries, object.TreeEntry{Mode: object.ModeTree, Name: name, ID: id})
		}
		b, err := object.EncodeTree(d.entries)
		if err != nil {
			return object.ID{}, fmt.Errorf("vcs: %v", err)
		}
		id, _, err := s.objs.Write(object.TypeTree, b)
		if err != nil {
			return id, fmt.Errorf("vcs: %w", err)
		}
		return id, nil
	}
	id, err := write(root)
	return ID(id), err
}

// Snapshot records the worktree as a new commit of the session: tracked
// files are those not ignored (nested .gitignore files, [Options.Ignore],
// ".git" entries, the store itself) and within [Options.MaxFileSize];
// symlinks are stored as symlinks, never followed. Files whose stat matches
// the stat cache are not read. The commit's parent is the session's head,
// it gets the next refs/smith/<session>/<n>, and the head moves to it.
// Empty directories are not recorded (as in git).
func (s *Store) Snapshot(ctx context.Context, req SnapshotRequest) (Snapshot, error) {
	if err := checkSession(req.Session); err != nil {
		return Snapshot{}, err
	}
	if req.Cause == "" || strings.ContainsAny(req.Cause, "\n\x00") {
		return Snapshot{}, fmt.Errorf("vcs: snapshot cause %q must be one non-empty line naming the session entry", req.Cause)
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	defer unlock()
	files, skipped, hashed, err := s.scan(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	tree, err := s.writeTree(files)
	if err != nil {
		return Snapshot{}, err
	}
	parent, err := s.readRef(HeadRef(req.Session))
	if err != nil {
		return Snapshot{}, err
	}
	if req.Reuse && !parent.IsZero() {
		if c, err := s.commit(parent); err == nil && ID(c.Tree) == tree {
			sn := info(parent, 0, c)
			sn.Files, sn.Hashed, sn.Skipped, sn.Reused = len(files), hashed, skipped, true
			sn.Seq = s.seqOf(req.Session, parent)
			return sn, nil
		}
	}
	now := s.opts.Now().UTC()
	var msg strings.Builder
	fmt.Fprintf(&msg, "smith snapshot: %s\n\nSession: %s\nCause: %s\n", req.Cause, req.Session, req.Cause)
	for _, sk := range skipped {
		fmt.Fprintf(&msg, "Skipped: %s (%d bytes): %s\n", strconv.Quote(sk.Path), sk.Size, sk.Reason)
	}
	c := object.Commit{Tree: object.ID(tree), Name: "Smith", Email: "smith@localhost", Time: now, Message: msg.String()}
	if !parent.IsZero() {
		c.Parents = []object.ID{object.ID(parent)}
	}
	b, err := object.EncodeCommit(c)
	if err != nil {
		return Snapshot{}, fmt.Errorf("vcs: %v", err)
	}
	cid, _, err := s.objs.Write(object.TypeCommit, b)
	if err != nil {
		return Snapshot{}, fmt.Errorf("vcs: %w", err)
	}
	if err := s.objs.Defer.Sync(); err != nil {
		return Snapshot{}, fmt.Errorf("vcs: %w", err)
	}
	seq, err := s.createSnapshotRef(req.Session, ID(cid))
	if err != nil {
		return Snapshot{}, err
	}
	if err := s.writeRef(HeadRef(req.Session), ID(cid)); err != nil {
		return Snapshot{}, err
	}
	return Snapshot{ID: ID(cid), Tree: tree, Parent: parent, Session: req.Session, Seq: seq, Cause: req.Cause,
		Time: now.Unix(), Files: len(files), Hashed: hashed, Skipped: skipped}, nil
}

// commit reads a snapshot commit.
func (s *Store) commit(id ID) (object.Commit, error) {
	t, b, err := s.objs.Read(object.ID(id))
	if err != nil {
		return object.Commit{}, fmt.Errorf("vcs: snapshot %s: %w", id, err)
	}
	if t != object.TypeCommit {
		return object.Commit{}, fmt.Errorf("vcs: %s is a %s, not a snapshot commit", id, t)
	}
	c, err := object.ParseCommit(b)
	if err != nil {
		return c, fmt.Errorf("vcs: snapshot %s: %v", id, err)
	}
	return c, nil
}

// info turns a commit into a Snapshot (without scan figures).
func info(id ID, seq int, c object.Commit) Snapshot {
	sn := Snapshot{ID: id, Tree: ID(c.Tree), Seq: seq, Time: c.Time.Unix()}
	if len(c.Parents) > 0 {
		sn.Parent = ID(c.Parents[0])
	}
	for _, line := range strings.Split(c.Message, "\n") {
		if v, ok := strings.CutPrefix(line, "Session: "); ok {
			sn.Session = v
		} else if v, ok := strings.CutPrefix(line, "Cause: "); ok {
			sn.Cause = v
		}
	}
	return sn
}

// Log returns the session's snapshots in the order they were taken
// (refs/smith/<session>/1, 2, …), including those on branches left by a
// restore.
func (s *Store) Log(session string) ([]Snapshot, error) {
	if err := checkSession(session); err != nil {
		return nil, err
	}
	seqs, err := s.seqs(session)
	if err != nil {
		return nil, err
	}
	out := make([]Snapshot, 0, len(seqs))
	for _, n := range seqs {
		id, err := s.readRef(SnapshotRef(session, n))
		if err != nil {
			return nil, err
		}
		c, err := s.commit(id)
		if err != nil {
			return nil, err
		}
		out = append(out, info(id, n, c))
	}
	return out, nil
}

// files returns the tracked files of a snapshot (a commit id), sorted by
// path.
func (s *Store) files(id ID) ([]file, error) {
	c, err := s.commit(id)
	if err != nil {
		return nil, err
	}
	var out []file
	var walk func(prefix string, tree object.ID) error
	walk = func(prefix string, tree object.ID) error {
		t, b, err := s.objs.Read(tree)
		if err != nil {
			return fmt.Errorf("vcs: snapshot %s: %w", id, err)
		}
		if t != object.TypeTree {
			return fmt.Errorf("vcs: snapshot %s: object %s is a %s, not a tree", id, tree, t)
		}
		entries, err := object.ParseTree(b)
		if err != nil {
			return fmt.Errorf("vcs: snapshot %s: tree %s: %v", id, tree, err)
		}
		for _, e := range entries {
			p := path.Join(prefix, e.Name)
			if e.Mode.IsTree() {
				if err := walk(p, e.ID); err != nil {
					return err
				}
				continue
			}
			out = append(out, file{Path: p, Mode: Mode(e.Mode), ID: ID(e.ID)})
		}
		return nil
	}
	if err := walk("", c.Tree); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b file) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// blob reads a blob's content.
func (s *Store) blob(id ID) ([]byte, error) {
	t, b, err := s.objs.Read(object.ID(id))
	if err != nil {
		return nil, fmt.Errorf("vcs: %w", err)
	}
	if t != object.TypeBlob {
		return nil, fmt.Errorf("vcs: object %s is a %s, not a blob", id, t)
	}
	return b, nil
}

// seqOf returns the number of the session's snapshot ref naming id,
// looking from the latest down (the head is usually the latest), or 0
// when no numbered ref names it.
func (s *Store) seqOf(session string, id ID) int {
	seqs, err := s.seqs(session)
	if err != nil {
		return 0
	}
	for i := len(seqs) - 1; i >= 0; i-- {
		if got, err := s.readRef(SnapshotRef(session, seqs[i])); err == nil && got == id {
			return seqs[i]
		}
	}
	return 0
}
