//go:build linux

package vcs

import (
	byteorder "encoding/binary"
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// dirHandle is an open worktree directory: its entries are listed with
// getdents and looked up with the *at system calls relative to its
// descriptor (one path component per lookup, not the whole path).
type dirHandle struct {
	fd   int
	path string
}

// openDir opens the directory path without following a symlink.
func openDir(path string) (*dirHandle, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return &dirHandle{fd: fd, path: path}, nil
}

func (d *dirHandle) close() { _ = unix.Close(d.fd) }

// list returns the directory's entries (not "." and ".."), unsorted; buf
// is scratch space of at least 8 KiB.
func (d *dirHandle) list(buf []byte) ([]dirent, error) {
	var out []dirent
	for {
		n, err := unix.Getdents(d.fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "getdents", Path: d.path, Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		// One string per batch: the names are slices of it.
		text := string(buf[:n])
		for off := 0; off+19 <= n; {
			// struct linux_dirent64: ino u64, off i64, reclen u16, type u8, name.
			ino := byteorder.NativeEndian.Uint64(buf[off:])
			reclen := int(byteorder.NativeEndian.Uint16(buf[off+16:]))
			typ := buf[off+18]
			if reclen < 19 || off+reclen > n {
				break
			}
			name := text[off+19 : off+reclen]
			for i := 0; i < len(name); i++ {
				if name[i] == 0 {
					name = name[:i]
					break
				}
			}
			off += reclen
			if ino == 0 || name == "." || name == ".." || name == "" {
				continue
			}
			out = append(out, dirent{name: name, kind: kindOfDirent(typ)})
		}
	}
}

func kindOfDirent(t byte) kind {
	switch t {
	case unix.DT_REG:
		return kindFile
	case unix.DT_DIR:
		return kindDir
	case unix.DT_LNK:
		return kindSymlink
	case unix.DT_UNKNOWN:
		return kindUnknown
	}
	return kindOther
}

// lstat returns the stat of the entry name, not following a symlink.
func (d *dirHandle) lstat(name string) (fileStat, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return fileStat{}, &os.PathError{Op: "lstat", Path: d.path + "/" + name, Err: err}
		}
		return statOfUnix(&st), nil
	}
}

func statOfUnix(st *unix.Stat_t) fileStat {
	k := kindOther
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		k = kindFile
	case unix.S_IFDIR:
		k = kindDir
	case unix.S_IFLNK:
		k = kindSymlink
	}
	return fileStat{
		kind:  k,
		exec:  st.Mode&0o100 != 0,
		size:  st.Size,
		mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec,
		ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec,
		ino:   st.Ino,
	}
}

// openFile is a worktree file opened for reading.
type openFile struct {
	fd   int
	path string
}

// open opens the entry name for reading without following a symlink (a
// symlink fails with ELOOP) and without blocking on a FIFO that replaced
// a file.
func (d *dirHandle) open(name string) (*openFile, error) {
	for {
		fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: d.path + "/" + name, Err: err}
		}
		return &openFile{fd: fd, path: d.path + "/" + name}, nil
	}
}

func (f *openFile) stat() (fileStat, error) {
	var st unix.Stat_t
	if err := unix.Fstat(f.fd, &st); err != nil {
		return fileStat{}, &os.PathError{Op: "fstat", Path: f.path, Err: err}
	}
	return statOfUnix(&st), nil
}

// Read reads from the file (io.Reader).
func (f *openFile) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(f.fd, p)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 0, &os.PathError{Op: "read", Path: f.path, Err: err}
		}
		if n == 0 && len(p) > 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *openFile) close() { _ = unix.Close(f.fd) }

// readlink returns the target of the symlink name.
func (d *dirHandle) readlink(name string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(d.fd, name, buf)
		if errors.Is(err, unix.EINTR) {
			size /= 2
			continue
		}
		if err != nil {
			return "", &os.PathError{Op: "readlink", Path: d.path + "/" + name, Err: err}
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

// remove deletes the non-directory entry name.
func (d *dirHandle) remove(name string) error {
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return &os.PathError{Op: "unlink", Path: d.path + "/" + name, Err: err}
	}
	return nil
}
