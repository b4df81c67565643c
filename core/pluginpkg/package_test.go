package pluginpkg_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/pluginpkg"
)

func TestOpenPackage(t *testing.T) {
	dir := writePackage(t, strings.Replace(shoutManifest, `"shout.wasm"`, `"build/shout.wasm"`, 1), "build/shout.wasm", fakeWasm)
	p, err := pluginpkg.OpenPackage(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Manifest.Name != "shout" || p.ArtifactPath != filepath.Join(p.Dir, "build", "shout.wasm") || len(p.Wasm) != len(fakeWasm) {
		t.Fatalf("got %+v", p)
	}
	if p.Artifact().SHA256 == "" {
		t.Fatal("the artifact has no pin")
	}
	// The http capability's allow prefixes are the artifact's network
	// scopes; the grants are what the manifest requests.
	dir = writePackage(t, shoutManifest+"capability \"http\" { allow \"https://api.example.com/\"; }\ncapability \"log\"\ntimeout \"2s\"\n", "shout.wasm", fakeWasm)
	if p, err = pluginpkg.OpenPackage(dir); err != nil {
		t.Fatal(err)
	}
	a := p.Artifact()
	if strings.Join(a.Grants, ",") != "http,log" || strings.Join(a.Network, ",") != "https://api.example.com/" || a.Timeout.String() != "2s" || a.Name != "shout" {
		t.Fatalf("artifact %+v", a)
	}
}

func TestOpenPackageRefuses(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.wasm")
	if err := os.WriteFile(outside, fakeWasm, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		setup func(t *testing.T) string
		want  string
	}{
		{"no directory", func(t *testing.T) string { return filepath.Join(t.TempDir(), "none") }, "does not exist"},
		{"no manifest", func(t *testing.T) string { return t.TempDir() }, "plugin.kdl does not exist"},
		{"bad manifest", func(t *testing.T) string { return writePackage(t, `name "X"`, "shout.wasm", fakeWasm) }, "plugin.kdl:1:6: name"},
		{"no artifact", func(t *testing.T) string { return writePackage(t, shoutManifest, "shout.wasm", nil) }, "shout.wasm does not exist"},
		{"not wasm", func(t *testing.T) string {
			return writePackage(t, shoutManifest, "shout.wasm", []byte("#!/bin/sh\necho hi\n"))
		}, "is not a WebAssembly module"},
		{"wasm version 2", func(t *testing.T) string {
			return writePackage(t, shoutManifest, "shout.wasm", []byte{0, 'a', 's', 'm', 2, 0, 0, 0})
		}, "is not a WebAssembly module"},
		{"artifact symlink escape", func(t *testing.T) string {
			dir := writePackage(t, shoutManifest, "shout.wasm", nil)
			if err := os.Symlink(outside, filepath.Join(dir, "shout.wasm")); err != nil {
				t.Skip(err)
			}
			return dir
		}, "outside the package directory"},
		{"manifest symlink escape", func(t *testing.T) string {
			dir := writePackage(t, shoutManifest, "shout.wasm", fakeWasm)
			other := filepath.Join(t.TempDir(), "plugin.kdl")
			if err := os.WriteFile(other, []byte(shoutManifest), 0o644); err != nil {
				t.Fatal(err)
			}
			_ = os.Remove(filepath.Join(dir, "plugin.kdl"))
			if err := os.Symlink(other, filepath.Join(dir, "plugin.kdl")); err != nil {
				t.Skip(err)
			}
			return dir
		}, "outside the package directory"},
		{"directory symlink escape", func(t *testing.T) string {
			dir := writePackage(t, strings.Replace(shoutManifest, `"shout.wasm"`, `"lib/outside.wasm"`, 1), "x", fakeWasm)
			if err := os.Symlink(filepath.Dir(outside), filepath.Join(dir, "lib")); err != nil {
				t.Skip(err)
			}
			return dir
		}, "outside the package directory"},
		{"artifact is a directory", func(t *testing.T) string {
			dir := writePackage(t, shoutManifest, "x", fakeWasm)
			if err := os.Mkdir(filepath.Join(dir, "shout.wasm"), 0o755); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "is not a regular file"},
		{"manifest too big", func(t *testing.T) string {
			return writePackage(t, shoutManifest+strings.Repeat("// padding\n", pluginpkg.MaxManifest/10), "shout.wasm", fakeWasm)
		}, "more than the 65536 allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := pluginpkg.OpenPackage(tt.setup(t))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestArtifactTooBig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.wasm")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: the bound is checked by stat, before any read.
	if _, err := f.Write(fakeWasm); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(pluginpkg.MaxArtifact + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := pluginpkg.ReadArtifact(path); err == nil || !strings.Contains(err.Error(), "more than the 67108864 allowed") {
		t.Fatalf("error %v", err)
	}
}
