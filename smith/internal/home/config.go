package home

import (
	"errors"
	"os"
	"path/filepath"
)

// ConfigFile returns the user's smith.kdl and where its location came
// from: SMITH_HOME/smith.kdl when SMITH_HOME is set (flag or environment,
// resolved by the caller), so one directory holds a whole Smith setup;
// else $XDG_CONFIG_HOME/smith/smith.kdl; else ~/.config/smith/smith.kdl.
// getenv is os.Getenv in production.
func ConfigFile(smithHome string, getenv func(string) string) (path, source string, err error) {
	const name = "smith.kdl"
	if smithHome != "" {
		abs, err := filepath.Abs(smithHome)
		if err != nil {
			return "", "", err
		}
		return filepath.Join(abs, name), "--home / SMITH_HOME", nil
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "smith", name), "XDG_CONFIG_HOME", nil
	}
	h := getenv("HOME")
	if h == "" {
		var err error
		if h, err = os.UserHomeDir(); err != nil || h == "" {
			return "", "", errors.New("home: cannot locate your smith.kdl: neither SMITH_HOME, XDG_CONFIG_HOME nor HOME is set; set SMITH_HOME=/path/to/dir or pass --home")
		}
	}
	return filepath.Join(h, ".config", "smith", name), "HOME (~/.config/smith)", nil
}
