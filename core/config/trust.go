package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/calico32/kdl-go"
	"github.com/gofrs/flock"

	"github.com/smith-agent/smith/core/internal/atomicfile"
)

// Trust records in the user's file userFile that the project at dir is
// trusted, so its .smith/smith.kdl is read from now on; it is the explicit
// user command that persists a trust decision. dir is recorded as its
// trust identity (absolute, symbolic links resolved). The file is created
// (mode 0600) when missing; otherwise it must be valid, and a
// trusted-project line is appended, keeping every other byte. The update
// holds a lock on userFile+".lock" and replaces the file atomically. It
// returns the recorded path and whether it was already trusted.
func Trust(userFile, dir string) (string, bool, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return "", false, fmt.Errorf("config: cannot trust %q: it is not a directory; pass the project's directory", dir)
	}
	id := canonical(dir)
	if !utf8.ValidString(id) {
		return "", false, fmt.Errorf("config: cannot trust %q: the path is not valid UTF-8, which smith.kdl cannot hold exactly; use --trust-project for each run instead", id)
	}
	if err := os.MkdirAll(filepath.Dir(userFile), 0o700); err != nil {
		return "", false, fmt.Errorf("config: cannot create the directory of %s: %w", userFile, err)
	}
	lock := flock.New(userFile + ".lock")
	if err := lock.Lock(); err != nil {
		return "", false, fmt.Errorf("config: cannot lock %s: %w", userFile, err)
	}
	defer func() { _ = lock.Unlock() }()

	old, err := os.ReadFile(userFile)
	mode := fs.FileMode(0o600)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return "", false, fmt.Errorf("config: cannot read %s: %w", userFile, err)
	default:
		if st, err := os.Stat(userFile); err == nil {
			mode = st.Mode().Perm()
		}
		d, _, errs, err := readFile(LayerUser, userFile)
		if err != nil {
			return "", false, err
		}
		if len(errs) > 0 {
			return "", false, fmt.Errorf("config: %s is invalid, so it was not changed; fix it first:\n%w", userFile, errs)
		}
		for _, t := range d.trusted {
			if canonical(t.Value) == id {
				return id, true, nil
			}
		}
	}
	text := old
	if len(text) > 0 && text[len(text)-1] != '\n' {
		text = append(text, '\n')
	}
	text = append(text, fmt.Sprintf("trusted-project \"%s\"\n", kdl.EscapeString(id, kdl.Version2))...)
	if err := replace(userFile, text, mode); err != nil {
		return "", false, err
	}
	return id, false, nil
}

// replace writes b to path atomically (core/internal/atomicfile).
func replace(path string, b []byte, mode fs.FileMode) error {
	if err := atomicfile.Replace(path, b, mode); err != nil {
		return fmt.Errorf("config: cannot write %s: %w", path, err)
	}
	return nil
}

// ProjectRoot returns the project dir belongs to: the nearest ancestor
// (itself included) holding .smith/smith.kdl, or "" when there is none.
func ProjectRoot(dir string) string { return findProject(dir) }
