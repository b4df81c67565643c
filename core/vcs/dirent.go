package vcs

// kind is the type of a directory entry, as far as a scan tells them apart.
type kind uint8

// The kinds of directory entries.
const (
	kindUnknown kind = iota // the listing did not say; lstat it
	kindFile
	kindDir
	kindSymlink
	kindOther // a device, FIFO or socket: never tracked
)

// dirent is one entry of a directory listing.
type dirent struct {
	name string
	kind kind
}

// fileStat is what a scan keeps of an lstat: the stat cache compares
// size, times, inode and mode. Change time and inode are zero where the
// platform does not report them.
type fileStat struct {
	kind  kind
	exec  bool // the owner's executable bit
	size  int64
	mtime int64 // ns since the epoch
	ctime int64 // ns since the epoch
	ino   uint64
}
