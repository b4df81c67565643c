//go:build linux

package vcs

import (
	"io/fs"
	"syscall"
)

// openNoFollow makes opening a path that has become a symlink fail.
const openNoFollow = syscall.O_NOFOLLOW

// statExtra returns the change time (ns) and inode of fi, or zeros.
func statExtra(fi fs.FileInfo) (int64, uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ctim.Sec*1e9 + st.Ctim.Nsec, st.Ino
}
