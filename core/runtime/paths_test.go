package runtime

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	tests := []struct {
		name      string
		smithHome string
		env       map[string]string
		want      string
		source    string
	}{
		{name: "SMITH_HOME wins", smithHome: "/data/smith", env: map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/h"}, want: "/data/smith", source: "SMITH_HOME"},
		{name: "XDG data home", env: map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/h"}, want: "/xdg/smith", source: "XDG_DATA_HOME"},
		{name: "relative XDG is ignored", env: map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/h"}, want: "/h/.local/share/smith", source: "HOME"},
		{name: "HOME", env: map[string]string{"HOME": "/h"}, want: "/h/.local/share/smith", source: "HOME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, source, err := dataDir(tt.smithHome, func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if dir != tt.want || !strings.Contains(source, tt.source) {
				t.Fatalf("Dir = %q (%s), want %q (%s)", dir, source, tt.want, tt.source)
			}
		})
	}
}

func TestDirRelativeSmithHome(t *testing.T) {
	dir, _, err := dataDir("rel/home", func(string) string { return "" })
	if err != nil || !filepath.IsAbs(dir) || !strings.HasSuffix(dir, "rel/home") {
		t.Fatalf("Dir = %q, %v; want an absolute path", dir, err)
	}
}

func TestConfigFile(t *testing.T) {
	tests := []struct {
		name      string
		smithHome string
		env       map[string]string
		want      string
		source    string
	}{
		{name: "SMITH_HOME wins", smithHome: "/data/smith", env: map[string]string{"XDG_CONFIG_HOME": "/xdg", "HOME": "/h"}, want: "/data/smith/smith.kdl", source: "SMITH_HOME"},
		{name: "XDG config home", env: map[string]string{"XDG_CONFIG_HOME": "/xdg", "HOME": "/h"}, want: "/xdg/smith/smith.kdl", source: "XDG_CONFIG_HOME"},
		{name: "relative XDG is ignored", env: map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}, want: "/h/.config/smith/smith.kdl", source: "HOME"},
		{name: "HOME", env: map[string]string{"HOME": "/h"}, want: "/h/.config/smith/smith.kdl", source: "HOME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, source, err := configFile(tt.smithHome, func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if path != tt.want || !strings.Contains(source, tt.source) {
				t.Fatalf("ConfigFile = %q (%s), want %q (%s)", path, source, tt.want, tt.source)
			}
		})
	}
}

func TestLocatePaths(t *testing.T) {
	env := map[string]string{"HOME": "/h", "XDG_CACHE_HOME": "/cache"}
	p, err := LocatePaths("/setup", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	want := Paths{Data: "/setup", DataSource: p.DataSource, ConfigFile: "/setup/smith.kdl", ConfigSource: p.ConfigSource, Cache: "/cache/smith"}
	if p != want || p.Sessions() != "/setup/sessions" || p.AuthFile() != "/setup/auth.json" || p.ConfigDir() != "/setup" {
		t.Fatalf("LocatePaths = %+v", p)
	}
	delete(env, "XDG_CACHE_HOME")
	if p, _ := LocatePaths("", func(k string) string { return env[k] }); p.Cache != "/h/.cache/smith" || p.Data != "/h/.local/share/smith" {
		t.Fatalf("without XDG: %+v", p)
	}
}
