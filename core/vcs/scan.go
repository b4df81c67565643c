package vcs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smith-agent/smith/core/internal/gitignore"
	"github.com/smith-agent/smith/core/vcs/internal/index"
	"github.com/smith-agent/smith/core/vcs/internal/object"
)

// tempMarker is in the names of the temporary files a restore creates in
// the worktree; a scan never tracks them, and removes those a killed
// restore left.
const tempMarker = ".smith-tmp-"

// racyWindow: a file modified this close to the scan could change again
// without its modification time moving (coarse file system clocks), so its
// stat is not trusted and it is hashed again by the next scan.
const racyWindow = 2e9 // ns

// statChunk is the most files of one directory a scan task stats; larger
// directories are split so that all CPUs share them.
const statChunk = 256

// scanResult is the worktree as a scan saw it.
type scanResult struct {
	entries []index.Entry // the tracked files sorted by path, with their stat
	skipped []Skipped     // sorted by path
	hashed  int           // files read and hashed
}

// dirNode is a walked directory.
type dirNode struct {
	dir   string     // "" for the root, else its path and "/"
	found []found    // its non-directory entries not ignored, by name
	subs  []*dirNode // its walked subdirectories, in git's order
}

// found is a file a directory listing found, to stat and maybe hash.
type found struct {
	name   string
	cached *index.Entry // the cache's entry for the path, if any
	entry  index.Entry
	skip   string // the reason it is not tracked, if it is not
	gone   bool   // removed while the scan ran
}

// ignores is the gitignore matcher of a directory: [Options.Ignore] and
// the .gitignore files of the directory and its ancestors.
type ignores struct {
	parent  *ignores
	dir     string // the directory of content, as gitignore.Matcher.Add takes it
	content []byte
	m       *gitignore.Matcher
}

// child returns the matcher of dir, whose .gitignore holds content: a new
// Matcher, as Matcher.Add may not run while others match.
func (ig *ignores) child(base []string, dir string, content []byte) *ignores {
	c := &ignores{parent: ig, dir: dir, content: content, m: &gitignore.Matcher{}}
	for _, l := range base {
		c.m.AddLine("", l)
	}
	var chain []*ignores
	for a := c; a != nil && a.content != nil; a = a.parent {
		chain = append(chain, a)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		c.m.Add(chain[i].dir, chain[i].content)
	}
	return c
}

// scanner walks the worktree on several goroutines: each task lists one
// directory, or stats (and hashes when needed) a chunk of one directory's
// files. Tasks of a directory's subdirectories start once its .gitignore
// is read.
type scanner struct {
	s           *Store
	ctx         context.Context
	old         []index.Entry // the cache's entries
	start       int64         // the scan's start on the file system's clock
	removeTemps bool
	sem         chan struct{}
	wg          sync.WaitGroup
	nfiles      atomic.Int64
	hashed      atomic.Int64
	failed      atomic.Bool
	errMu       sync.Mutex
	err         error
	bufs        sync.Pool
}

// scan walks the worktree and returns its tracked files, writing the blob
// of every file the cache c does not vouch for. Temporary files of a
// killed restore are removed when removeTemps is set (not while a
// restore writes its own). The caller holds the lock.
func (s *Store) scan(ctx context.Context, c *cache, removeTemps bool) (*scanResult, error) {
	w := &scanner{s: s, ctx: ctx, old: c.entries, start: time.Now().UnixNano(), removeTemps: removeTemps}
	w.sem = make(chan struct{}, min(2*runtime.GOMAXPROCS(0), 16))
	w.bufs.New = func() any { b := make([]byte, 32<<10); return &b }
	root := &dirNode{}
	base := &ignores{m: &gitignore.Matcher{}}
	for _, l := range s.ignores {
		base.m.AddLine("", l)
	}
	w.spawn(func() { w.walk(root, s.worktree, base) })
	w.wg.Wait()
	if w.err != nil {
		return nil, w.err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &scanResult{hashed: int(w.hashed.Load())}
	res.entries = make([]index.Entry, 0, w.nfiles.Load())
	finish(root, res)
	slices.SortFunc(res.skipped, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	return res, nil
}

// finish appends the files of n and below to res in path order (git's
// order: a directory sorts as its name and "/").
func finish(n *dirNode, res *scanResult) {
	i := 0
	for _, sub := range n.subs {
		name := sub.dir[len(n.dir):] // "name/"
		for ; i < len(n.found) && n.found[i].name < name; i++ {
			res.add(&n.found[i])
		}
		finish(sub, res)
	}
	for ; i < len(n.found); i++ {
		res.add(&n.found[i])
	}
	n.found, n.subs = nil, nil
}

func (res *scanResult) add(f *found) {
	switch {
	case f.gone:
	case f.skip != "":
		res.skipped = append(res.skipped, Skipped{Path: f.entry.Path, Size: f.entry.Size, Reason: f.skip})
	default:
		res.entries = append(res.entries, f.entry)
	}
}

// spawn runs task on a goroutine when a slot is free.
func (w *scanner) spawn(task func()) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		w.sem <- struct{}{}
		defer func() { <-w.sem }()
		if w.failed.Load() || w.ctx.Err() != nil {
			return
		}
		task()
	}()
}

func (w *scanner) fail(err error) {
	w.errMu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.errMu.Unlock()
	w.failed.Store(true)
}

// walk lists the directory n (at abs), reads its .gitignore, starts the
// walks of its subdirectories and the stats of its files.
func (w *scanner) walk(n *dirNode, abs string, ig *ignores) {
	d, err := openDir(abs)
	if err != nil {
		if n.dir != "" && errors.Is(err, fs.ErrNotExist) {
			return // removed while walking
		}
		w.fail(fmt.Errorf("vcs: read directory %s: %w", abs, err))
		return
	}
	defer d.close()
	buf := w.bufs.Get().(*[]byte)
	ents, err := d.list(*buf)
	w.bufs.Put(buf)
	if err != nil {
		w.fail(fmt.Errorf("vcs: read directory %s: %w", abs, err))
		return
	}
	slices.SortFunc(ents, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	for i := range ents {
		if ents[i].kind == kindUnknown {
			st, err := d.lstat(ents[i].name)
			if err != nil {
				ents[i].kind = kindOther // removed or unreadable: the stat task decides
				continue
			}
			ents[i].kind = st.kind
		}
	}
	if i, ok := slices.BinarySearchFunc(ents, ".gitignore", func(e dirent, name string) int { return strings.Compare(e.name, name) }); ok && ents[i].kind == kindFile {
		content, err := w.readAll(d, ".gitignore")
		if err != nil {
			w.fail(fmt.Errorf("vcs: read %s/.gitignore: %w", abs, err))
			return
		}
		ig = ig.child(w.s.ignores, strings.TrimSuffix(n.dir, "/"), content)
	}
	cur := cursor{ents: w.old, dir: n.dir}
	cur.i, _ = below(w.old, n.dir)
	for _, e := range ents {
		name := e.name
		if strings.Contains(name, tempMarker) {
			if e.kind != kindDir && w.removeTemps {
				// Left by a restore that was killed: scans hold the
				// store's lock, so no restore is writing it now.
				_ = d.remove(name)
			}
			continue
		}
		if strings.EqualFold(name, ".git") {
			continue
		}
		if e.kind == kindDir {
			p := n.dir + name
			if filepath.Join(abs, name) == w.s.dir || ig.m.MatchEntry(p, true) {
				continue
			}
			sub := &dirNode{dir: p + "/"}
			n.subs = append(n.subs, sub)
			continue
		}
		f := found{name: name, cached: cur.find(name)}
		p := ""
		if f.cached != nil {
			p = f.cached.Path // no new string for a known file
		} else {
			p = n.dir + name
		}
		if ig.m.MatchEntry(p, false) {
			continue
		}
		if w.nfiles.Add(1) > int64(w.s.opts.MaxFiles) {
			w.fail(fmt.Errorf("%w: %s has more than %d files that are not ignored; add the bulky directories to .gitignore (or to ignore in smith.kdl)", ErrTooManyFiles, w.s.worktree, w.s.opts.MaxFiles))
			return
		}
		f.entry.Path = p
		n.found = append(n.found, f)
	}
	// Git's order for the subdirectories: a name sorts as if it ended in "/".
	slices.SortFunc(n.subs, func(a, b *dirNode) int { return strings.Compare(a.dir, b.dir) })
	for _, sub := range n.subs {
		w.spawn(func() { w.walk(sub, filepath.Join(abs, sub.dir[len(n.dir):len(sub.dir)-1]), ig) })
	}
	// The first chunk is statted here, with the open directory; the
	// others by tasks of their own.
	for lo := statChunk; lo < len(n.found); lo += statChunk {
		chunk := n.found[lo:min(lo+statChunk, len(n.found))]
		w.spawn(func() {
			d, err := openDir(abs)
			if err != nil {
				w.fail(fmt.Errorf("vcs: read directory %s: %w", abs, err))
				return
			}
			defer d.close()
			w.stat(d, chunk)
		})
	}
	w.stat(d, n.found[:min(statChunk, len(n.found))])
}

// cursor finds the cache's entries of one directory's files, asked for in
// name order.
type cursor struct {
	ents []index.Entry
	dir  string
	i    int
}

func (c *cursor) find(name string) *index.Entry {
	for c.i < len(c.ents) {
		p := c.ents[c.i].Path
		if !strings.HasPrefix(p, c.dir) {
			c.i = len(c.ents)
			return nil
		}
		rest := p[len(c.dir):]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			// The files of a subdirectory: pass them all.
			sub := rest[:j+1]
			base := c.i
			c.i += sort.Search(len(c.ents)-base, func(k int) bool {
				q := c.ents[base+k].Path
				return !strings.HasPrefix(q, c.dir) || !strings.HasPrefix(q[len(c.dir):], sub)
			})
			continue
		}
		switch {
		case rest < name:
			c.i++
		case rest == name:
			c.i++
			return &c.ents[c.i-1]
		default:
			return nil
		}
	}
	return nil
}

// stat stats the files of one directory and hashes those the cache does
// not vouch for.
func (w *scanner) stat(d *dirHandle, fs []found) {
	for i := range fs {
		if w.failed.Load() {
			return
		}
		if i%64 == 63 && w.ctx.Err() != nil {
			w.fail(w.ctx.Err())
			return
		}
		if err := w.statOne(d, &fs[i]); err != nil {
			w.fail(err)
			return
		}
	}
}

func (w *scanner) statOne(d *dirHandle, f *found) error {
	st, err := d.lstat(f.name)
	if errors.Is(err, fs.ErrNotExist) {
		f.gone = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("vcs: stat %s: %w", d.path+"/"+f.name, err)
	}
	e := &f.entry
	e.Size = st.size
	switch {
	case st.kind == kindSymlink:
		e.Mode = uint32(ModeSymlink)
	case st.kind == kindFile && st.exec:
		e.Mode = uint32(ModeExec)
	case st.kind == kindFile:
		e.Mode = uint32(ModeFile)
	default:
		f.skip = "not a regular file, directory or symlink"
		return nil
	}
	max := w.s.opts.MaxFileSize
	if st.kind != kindSymlink && st.size > max {
		f.skip = fmt.Sprintf("larger than the limit of %d bytes", max)
		return nil
	}
	e.MTime, e.CTime, e.Ino = st.mtime, st.ctime, st.ino
	if old := f.cached; old != nil && !old.Racy && old.Same(*e) {
		e.ID = old.ID
		e.Racy = e.MTime > w.start-racyWindow
		return nil
	}
	var content []byte
	if st.kind == kindSymlink {
		target, err := d.readlink(f.name)
		if err != nil {
			return fmt.Errorf("vcs: read symlink %s: %w", d.path+"/"+f.name, err)
		}
		content = []byte(target)
	} else {
		b, skip, err := w.read(d, f)
		if err != nil || skip != "" {
			f.skip = skip
			return err
		}
		content = b
	}
	id, _, err := w.s.objs.Write(object.TypeBlob, content)
	if err != nil {
		return fmt.Errorf("vcs: store %s: %w", d.path+"/"+f.name, err)
	}
	w.hashed.Add(1)
	e.ID = id
	// Content that does not match the stat changed while being read.
	e.Racy = e.MTime > w.start-racyWindow || int64(len(content)) != e.Size
	return nil
}

// read returns a regular file's content without following a symlink that
// replaced it since the listing; skip is the reason to leave it out. The
// entry takes the stat of the opened file.
func (w *scanner) read(d *dirHandle, f *found) ([]byte, string, error) {
	if hook := w.s.onOpen; hook != nil {
		w.s.hookMu.Lock()
		hook(f.entry.Path)
		w.s.hookMu.Unlock()
	}
	file, err := d.open(f.name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "removed during the snapshot", nil
	}
	if err != nil {
		return nil, fmt.Sprintf("cannot be opened: %v", err), nil
	}
	defer file.close()
	st, err := file.stat()
	if err != nil || st.kind != kindFile {
		return nil, "changed type during the snapshot", nil
	}
	e := &f.entry
	e.Mode = uint32(ModeFile)
	if st.exec {
		e.Mode = uint32(ModeExec)
	}
	e.MTime, e.CTime, e.Ino, e.Size = st.mtime, st.ctime, st.ino, st.size
	max := w.s.opts.MaxFileSize
	b, err := readUpTo(file, st.size, max)
	if err != nil {
		return nil, "", fmt.Errorf("vcs: read %s: %w", d.path+"/"+f.name, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Sprintf("larger than the limit of %d bytes", max), nil
	}
	return b, "", nil
}

// readAll reads the regular file name of d (a .gitignore).
func (w *scanner) readAll(d *dirHandle, name string) ([]byte, error) {
	f, err := d.open(name)
	if err != nil {
		return nil, err
	}
	defer f.close()
	st, err := f.stat()
	if err != nil {
		return nil, err
	}
	return readUpTo(f, st.size, 1<<62)
}

// readUpTo reads r to its end, or to max+1 bytes; size is the expected
// length.
func readUpTo(r io.Reader, size, max int64) ([]byte, error) {
	limit := max + 1
	b := make([]byte, 0, int(min(size+1, limit))) // room to see the end
	for {
		if len(b) == cap(b) {
			if int64(len(b)) >= limit {
				return b, nil
			}
			b = slices.Grow(b, int(min(int64(len(b))+512, limit-int64(len(b)))))
		}
		end := cap(b)
		if int64(end) > limit {
			end = int(limit)
		}
		n, err := r.Read(b[len(b):end])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
