package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/smith-agent/smith/core/internal/ident"
	"github.com/smith-agent/smith/sessionfmt"
)

// Dir is a directory of sessions, one file each, named
// "<id>.session" or "<id>--<name>.session" where id is the session's ULID.
// Names are unique within a Dir. A Dir holds no state beyond its path; its
// methods are safe for concurrent use, and each session file has one writer
// at a time (sessionfmt's lock).
type Dir struct {
	path string
}

// Info describes one session of a Dir.
type Info struct {
	ID      string // ULID, 26 characters
	Name    string // "" when unnamed
	Path    string
	ModTime time.Time
}

const ext = ".session"

// validName reports whether name has the form ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$.
func validName(name string) bool { return ident.Valid(name, 64, ident.Alnum, nameRest) }

func nameRest(c byte) bool { return ident.Alnum(c) || c == '.' || c == '_' || c == '-' }

// OpenDir returns the session directory at path, creating it (0700) if
// needed.
func OpenDir(path string) (*Dir, error) {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, fmt.Errorf("session: create session directory: %w", err)
	}
	return &Dir{path: path}, nil
}

// checkName validates a session name.
func checkName(name string) error {
	if !validName(name) || strings.Contains(name, "--") {
		return fmt.Errorf("session: name %q is not valid; use 1-64 letters, digits, '.', '_' or '-' (no \"--\"), starting with a letter or digit, such as \"fix-login\"", name)
	}
	if _, err := sessionfmt.ParseID(strings.ToUpper(name)); err == nil {
		return fmt.Errorf("session: name %q looks like a session id; choose a name that is not 26 base32 characters", name)
	}
	return nil
}

// Create publishes a new, empty session (named unless name is "") and
// returns it open for appending.
//
// A name is claimed atomically across processes: of several creating the
// same name at once, exactly one succeeds and the others get the "is
// taken" error.
func (d *Dir) Create(name string) (f *sessionfmt.File, info Info, err error) {
	if name == "" {
		return d.create(name)
	}
	if err := checkName(name); err != nil {
		return nil, Info{}, err
	}
	err = d.claim(func() error {
		if other, err := d.byName(name); err == nil {
			return fmt.Errorf("session: name %q is taken by session %s; resume it, or choose another name", name, other.ID)
		}
		f, info, err = d.create(name)
		return err
	})
	return f, info, err
}

// create publishes a new session file named name ("" for none).
func (d *Dir) create(name string) (*sessionfmt.File, Info, error) {
	id := sessionfmt.NewID().String()
	file := id + ext
	if name != "" {
		file = id + "--" + name + ext
	}
	info := Info{ID: id, Name: name, Path: filepath.Join(d.path, file)}
	f, err := sessionfmt.Create(info.Path, nil)
	if err != nil {
		return nil, Info{}, err
	}
	info.ModTime = time.Now()
	return f, info, nil
}

// List returns every session, oldest first (by id).
func (d *Dir) List() ([]Info, error) {
	ents, err := os.ReadDir(d.path)
	if err != nil {
		return nil, fmt.Errorf("session: list %s: %w", d.path, err)
	}
	var out []Info
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ext) {
			continue
		}
		stem := strings.TrimSuffix(n, ext)
		id, name, _ := strings.Cut(stem, "--")
		if _, err := sessionfmt.ParseID(id); err != nil {
			continue // not a session file of this directory
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, Info{ID: id, Name: name, Path: filepath.Join(d.path, n), ModTime: fi.ModTime()})
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// ErrNoSessions is returned by [Dir.Latest] for an empty directory.
var ErrNoSessions = errors.New("session: there are no sessions yet; start one")

// Latest returns the most recently modified session (ties: the newest id).
func (d *Dir) Latest() (Info, error) {
	all, err := d.List()
	if err != nil {
		return Info{}, err
	}
	if len(all) == 0 {
		return Info{}, ErrNoSessions
	}
	best := all[0]
	for _, in := range all[1:] {
		if !in.ModTime.Before(best.ModTime) {
			best = in
		}
	}
	return best, nil
}

func (d *Dir) byName(name string) (Info, error) {
	all, err := d.List()
	if err != nil {
		return Info{}, err
	}
	for _, in := range all {
		if in.Name == name {
			return in, nil
		}
	}
	return Info{}, fmt.Errorf("session: no session named %q", name)
}

// Find resolves ref: a session name, a full id, or an unambiguous id prefix
// of at least 4 characters (case-insensitive).
func (d *Dir) Find(ref string) (Info, error) {
	all, err := d.List()
	if err != nil {
		return Info{}, err
	}
	var named []string
	var hit Info
	for _, in := range all {
		if in.Name == ref {
			named, hit = append(named, in.ID), in
		}
	}
	switch {
	case len(named) == 1:
		return hit, nil
	case len(named) > 1:
		// Only a Smith that predates atomic name claims made these.
		return Info{}, fmt.Errorf("session: %d sessions are named %q (%s); give the id of the one you mean", len(named), ref, strings.Join(named, ", "))
	}
	up := strings.ToUpper(ref)
	var hits []Info
	for _, in := range all {
		if in.ID == up || (len(up) >= 4 && strings.HasPrefix(in.ID, up)) {
			hits = append(hits, in)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return Info{}, fmt.Errorf("session: no session is named %q or has an id starting with it in %s; list them with 'smith session ls'", ref, d.path)
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return Info{}, fmt.Errorf("session: %q matches %d sessions (%s); give more of the id", ref, len(hits), strings.Join(ids, ", "))
}

// Fork publishes a new session (named unless name is "") holding the
// history of src up to the entry at, and returns it open for appending.
// src is opened for the fork and closed again; it is not changed.
func (d *Dir) Fork(src Info, at sessionfmt.ID, name string) (*sessionfmt.File, Info, error) {
	f, err := sessionfmt.Open(src.Path, nil)
	if err != nil {
		return nil, Info{}, err
	}
	defer f.Close()
	return d.ForkOpen(f, at, name)
}

// ForkOpen is [Dir.Fork] of a session this process already has open for
// appending (so it cannot be opened a second time): the new session holds
// f's history up to the entry at.
func (d *Dir) ForkOpen(f *sessionfmt.File, at sessionfmt.ID, name string) (nf *sessionfmt.File, info Info, err error) {
	if name == "" {
		return d.forkFile(f, at, name)
	}
	if err := checkName(name); err != nil {
		return nil, Info{}, err
	}
	err = d.claim(func() error {
		if other, err := d.byName(name); err == nil {
			return fmt.Errorf("session: name %q is taken by session %s; choose another name for the fork", name, other.ID)
		}
		nf, info, err = d.forkFile(f, at, name)
		return err
	})
	return nf, info, err
}

// claimWait bounds the wait for another process claiming a name.
const claimWait = 10 * time.Second

// claim runs publish holding the directory's name lock (.names.lock), so
// that checking a name is free and publishing the file that takes it are
// one step for every process sharing the directory.
func (d *Dir) claim(publish func() error) error {
	lk := flock.New(filepath.Join(d.path, ".names.lock"))
	ctx, cancel := context.WithTimeout(context.Background(), claimWait)
	defer cancel()
	ok, err := lk.TryLockContext(ctx, 5*time.Millisecond)
	switch {
	case err != nil && !ok && ctx.Err() != nil:
		return fmt.Errorf("session: another Smith has held %s for %s while naming a session; try again, or remove the file if no Smith is running", lk.Path(), claimWait)
	case err != nil:
		return fmt.Errorf("session: lock %s to claim a session name: %w", lk.Path(), err)
	}
	defer lk.Unlock()
	return publish()
}

func (d *Dir) forkFile(f *sessionfmt.File, at sessionfmt.ID, name string) (*sessionfmt.File, Info, error) {
	id := sessionfmt.NewID().String()
	file := id + ext
	if name != "" {
		file = id + "--" + name + ext
	}
	info := Info{ID: id, Name: name, Path: filepath.Join(d.path, file), ModTime: time.Now()}
	nf, err := f.Fork(at, info.Path)
	if err != nil {
		return nil, Info{}, err
	}
	return nf, info, nil
}
