// Package atomicfile publishes files atomically: the content is written to a
// temporary file in the destination directory, synced, renamed over the
// destination, and the directory is synced, so that after a crash the path
// holds either nothing (or its old content) or the complete new content.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write publishes the bytes produced by fill at path with permissions perm.
// With replace false, Write fails if path already exists (the check is made
// just before the rename; callers serialise writers with a lock). On any
// error the temporary file is removed and path is untouched.
func Write(path string, perm fs.FileMode, replace bool, fill func(w *bufio.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temporary file in %s: %w", dir, err)
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
	}()
	w := bufio.NewWriterSize(tmp, 64<<10)
	if err = fill(w); err != nil {
		return err
	}
	if err = w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("chmod %s: %w", name, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", name, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", name, err)
	}
	if !replace {
		if _, serr := os.Lstat(path); serr == nil {
			return fmt.Errorf("%s already exists: %w", path, fs.ErrExist)
		} else if !errors.Is(serr, fs.ErrNotExist) {
			return serr
		}
	}
	if err = os.Rename(name, path); err != nil {
		return fmt.Errorf("rename %s to %s: %w", name, path, err)
	}
	return SyncDir(dir)
}
