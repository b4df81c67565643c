package hostfs

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// openPath returns the absolute path, symbolic links resolved, of the open
// file f as the kernel names it (Linux: the /proc/self/fd link, one system
// call), or "" when it cannot tell — another system, no /proc, a file
// removed since it was opened. Callers then resolve the path with
// [target.real].
func openPath(f *os.File) string {
	if runtime.GOOS != "linux" {
		return ""
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return ""
	}
	var p string
	_ = sc.Control(func(fd uintptr) {
		p, _ = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
	})
	if !filepath.IsAbs(p) || strings.HasSuffix(p, " (deleted)") {
		return ""
	}
	return p
}

// real returns t's absolute path with symbolic links resolved, the key of
// the FS's memory. A path that no longer resolves (removed meanwhile) keys
// as its lexical absolute path.
func (t target) real() string {
	if p, err := filepath.EvalSymlinks(t.abs); err == nil {
		return p
	}
	return t.abs
}
