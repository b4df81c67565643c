//go:build !linux

package vcs

import (
	"io/fs"
	"os"
	"path/filepath"
)

// dirHandle is an open worktree directory; here its entries are looked
// up by joined paths.
type dirHandle struct {
	path string
}

// openDir checks that path is a directory.
func openDir(path string) (*dirHandle, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrInvalid}
	}
	return &dirHandle{path: path}, nil
}

func (d *dirHandle) close() {}

// list returns the directory's entries, unsorted; buf is unused.
func (d *dirHandle) list([]byte) ([]dirent, error) {
	ents, err := os.ReadDir(d.path)
	if err != nil {
		return nil, err
	}
	out := make([]dirent, len(ents))
	for i, e := range ents {
		k := kindOther
		switch t := e.Type(); {
		case t.IsRegular():
			k = kindFile
		case t.IsDir():
			k = kindDir
		case t&fs.ModeSymlink != 0:
			k = kindSymlink
		}
		out[i] = dirent{name: e.Name(), kind: k}
	}
	return out, nil
}

// lstat returns the stat of the entry name, not following a symlink.
func (d *dirHandle) lstat(name string) (fileStat, error) {
	fi, err := os.Lstat(filepath.Join(d.path, name))
	if err != nil {
		return fileStat{}, err
	}
	return statOfInfo(fi), nil
}

// openFile is a worktree file opened for reading.
type openFile struct {
	*os.File
}

// open opens the entry name for reading; the caller checks the opened
// file's own stat, as O_NOFOLLOW is not used here.
func (d *dirHandle) open(name string) (*openFile, error) {
	f, err := os.Open(filepath.Join(d.path, name))
	if err != nil {
		return nil, err
	}
	return &openFile{f}, nil
}

func (f *openFile) stat() (fileStat, error) {
	fi, err := f.Stat()
	if err != nil {
		return fileStat{}, err
	}
	return statOfInfo(fi), nil
}

func (f *openFile) close() { _ = f.Close() }

// readlink returns the target of the symlink name.
func (d *dirHandle) readlink(name string) (string, error) {
	return os.Readlink(filepath.Join(d.path, name))
}

// remove deletes the non-directory entry name.
func (d *dirHandle) remove(name string) error { return os.Remove(filepath.Join(d.path, name)) }

// statOfInfo converts a portable FileInfo (no change time or inode).
func statOfInfo(fi fs.FileInfo) fileStat {
	k := kindOther
	switch m := fi.Mode(); {
	case m.IsRegular():
		k = kindFile
	case m.IsDir():
		k = kindDir
	case m&fs.ModeSymlink != 0:
		k = kindSymlink
	}
	return fileStat{kind: k, exec: fi.Mode().Perm()&0o100 != 0, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}
