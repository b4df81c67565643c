//go:build !linux

package vcs

import "io/fs"

// openNoFollow is 0 where O_NOFOLLOW is not used; the scan checks the
// opened file's own stat instead.
const openNoFollow = 0

// statExtra returns zeros where the change time and inode are not read;
// the stat cache then relies on size, modification time and mode.
func statExtra(fs.FileInfo) (int64, uint64) { return 0, 0 }

// statFiles stats the files of one directory.
func statFiles(_ string, fs []pending) {
	for i := range fs {
		fs[i].fi, fs[i].err = fs[i].e.Info()
	}
}
