package home

import (
	"errors"
	"os"
	"path/filepath"
)

// Dir returns Smith's data directory and where it came from: the value of
// SMITH_HOME when set (flag or environment, resolved by the caller), else
// $XDG_DATA_HOME/smith, else ~/.local/share/smith. getenv is os.Getenv in
// production; tests pass their own.
func Dir(smithHome string, getenv func(string) string) (dir, source string, err error) {
	if smithHome != "" {
		abs, err := filepath.Abs(smithHome)
		if err != nil {
			return "", "", err
		}
		return abs, "--home / SMITH_HOME", nil
	}
	if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "smith"), "XDG_DATA_HOME", nil
	}
	h := getenv("HOME")
	if h == "" {
		var err error
		if h, err = os.UserHomeDir(); err != nil || h == "" {
			return "", "", errors.New("home: cannot locate Smith's data directory: neither SMITH_HOME, XDG_DATA_HOME nor HOME is set; set SMITH_HOME=/path/to/dir or pass --home")
		}
	}
	return filepath.Join(h, ".local", "share", "smith"), "HOME (~/.local/share/smith)", nil
}

// Sessions returns the sessions directory inside the data directory dir.
func Sessions(dir string) string { return filepath.Join(dir, "sessions") }
