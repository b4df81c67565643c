package runtime

import (
	"errors"
	"os"
	"path/filepath"
)

// Paths are where Smith keeps its files. The zero value is not useful; get
// one from [LocatePaths].
type Paths struct {
	// Data is Smith's data directory (sessions, the auth file, the catalog
	// cache) and DataSource says where its location came from.
	Data, DataSource string
	// ConfigFile is the user's smith.kdl and ConfigSource says where its
	// location came from.
	ConfigFile, ConfigSource string
	// Cache holds compiled plugin code and cached registrations; "" when
	// the user cache directory is unknown (then nothing is cached on disk).
	Cache string
}

// LocatePaths resolves Smith's paths from home — the --home flag or
// SMITH_HOME, "" when neither is set — and the environment read by getenv
// (os.Getenv in production): with home set, one directory holds the whole
// setup (data and smith.kdl); otherwise the XDG base directories, else
// ~/.local/share/smith and ~/.config/smith. The cache directory is
// $XDG_CACHE_HOME/smith, else ~/.cache/smith.
func LocatePaths(home string, getenv func(string) string) (Paths, error) {
	var p Paths
	var err error
	if p.Data, p.DataSource, err = dataDir(home, getenv); err != nil {
		return Paths{}, err
	}
	if p.ConfigFile, p.ConfigSource, err = configFile(home, getenv); err != nil {
		return Paths{}, err
	}
	if x := getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		p.Cache = filepath.Join(x, "smith")
	} else if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
		p.Cache = filepath.Join(h, ".cache", "smith")
	} else if base, err := os.UserCacheDir(); err == nil {
		p.Cache = filepath.Join(base, "smith")
	}
	return p, nil
}

// Sessions is the sessions directory.
func (p Paths) Sessions() string { return filepath.Join(p.Data, "sessions") }

// AuthFile is Smith's auth file.
func (p Paths) AuthFile() string { return filepath.Join(p.Data, "auth.json") }

// ConfigDir is the directory of the user's smith.kdl, where the user's own
// AGENTS.md lives.
func (p Paths) ConfigDir() string { return filepath.Dir(p.ConfigFile) }

// dataDir returns Smith's data directory and where it came from: the value of
// SMITH_HOME when set (flag or environment, resolved by the caller), else
// $XDG_DATA_HOME/smith, else ~/.local/share/smith. getenv is os.Getenv in
// production; tests pass their own.
func dataDir(smithHome string, getenv func(string) string) (dir, source string, err error) {
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
			return "", "", errors.New("runtime: cannot locate Smith's data directory: neither SMITH_HOME, XDG_DATA_HOME nor HOME is set; set SMITH_HOME=/path/to/dir or pass --home")
		}
	}
	return filepath.Join(h, ".local", "share", "smith"), "HOME (~/.local/share/smith)", nil
}

// configFile returns the user's smith.kdl and where its location came
// from: SMITH_HOME/smith.kdl when SMITH_HOME is set (flag or environment,
// resolved by the caller), so one directory holds a whole Smith setup;
// else $XDG_CONFIG_HOME/smith/smith.kdl; else ~/.config/smith/smith.kdl.
// getenv is os.Getenv in production.
func configFile(smithHome string, getenv func(string) string) (path, source string, err error) {
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
			return "", "", errors.New("runtime: cannot locate your smith.kdl: neither SMITH_HOME, XDG_CONFIG_HOME nor HOME is set; set SMITH_HOME=/path/to/dir or pass --home")
		}
	}
	return filepath.Join(h, ".config", "smith", name), "HOME (~/.config/smith)", nil
}
