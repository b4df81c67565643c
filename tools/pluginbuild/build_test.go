package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestPinsGolden(t *testing.T) {
	got := pins("go1.26.8", "fuel-v3-0123456789abcdef", []artifact{
		{name: "providers", file: "providers.wasm", wasm: make([]byte, 5), sha256: strings.Repeat("ab", 32)},
		{name: "tools", file: "tools.wasm", wasm: make([]byte, 3), sha256: strings.Repeat("01", 32)},
	})
	golden := filepath.Join("testdata", "pins_gen.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("pins_gen.go =\n%s\nwant\n%s", got, want)
	}
}

func TestCompare(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.wasm"), []byte("abcdef"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		want map[string][]byte
		err  []string // substrings of the error; nil means no error
	}{
		{name: "identical", want: map[string][]byte{"a.wasm": []byte("abcdef")}},
		{name: "changed-byte", want: map[string][]byte{"a.wasm": []byte("abcXef")},
			err: []string{"a.wasm: 6 bytes on disk, 6 rebuilt, first difference at byte 3", "run go run ./tools/pluginbuild and commit"}},
		{name: "longer", want: map[string][]byte{"a.wasm": []byte("abcdefg")}, err: []string{"first difference at byte 6"}},
		{name: "missing", want: map[string][]byte{"a.wasm": []byte("abcdef"), "b.wasm": nil}, err: []string{"b.wasm", "no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := compare(dir, tt.want, "go1.26.8")
			if tt.err == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("compare found no difference")
			}
			for _, s := range tt.err {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

func TestDefaultDirs(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"b/main.go":          "// Command b.\npackage main\n",
		"a/x.go":             "package main\n",
		"lib/lib.go":         "package lib\n",
		"onlytest/x_test.go": "package main\n",
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := defaultDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(root, "a"), filepath.Join(root, "b")}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("defaultDirs = %v; want %v", got, want)
	}
	if _, err := defaultDirs(filepath.Join(root, "lib")); err == nil || !strings.Contains(err.Error(), "no main package") {
		t.Errorf("defaultDirs without plugins = %v", err)
	}
}

// TestReproducible builds the tools plugin twice, with a hostile
// environment the second time, and requires identical bytes.
func TestReproducible(t *testing.T) {
	t.Chdir("../..")
	a, err := build("plugins-src/tools", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-race")
	t.Setenv("GOAMD64", "v3")
	t.Setenv("CGO_ENABLED", "1")
	b, err := build("plugins-src/tools", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if a.sha256 != b.sha256 || !bytes.Equal(a.wasm, b.wasm) {
		t.Errorf("two builds differ: %s vs %s", a.sha256, b.sha256)
	}
	if _, err := build("plugins-src", t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no main package") {
		t.Errorf("build of a non-plugin directory = %v", err)
	}
}
