package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestPinsGolden(t *testing.T) {
	got := pins("fuel-v3-0123456789abcdef", []artifact{
		{name: "providers", file: "providers.wasm", toolchain: "go1.26.8", wasm: make([]byte, 5), sha256: strings.Repeat("ab", 32)},
		{name: "tools", file: "tools.wasm", toolchain: "rustc 1.63.0", wasm: make([]byte, 3), sha256: strings.Repeat("01", 32)},
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
			err := compare(dir, tt.want, []artifact{{name: "a", toolchain: "go1.26.8"}})
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
		"c/src/lib.rs":       "// A Rust crate.\n",
		"d/lib.rs":           "// not at src/lib.rs\n",
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
	if want := []string{filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c")}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("defaultDirs = %v; want %v", got, want)
	}
	if _, err := defaultDirs(filepath.Join(root, "lib")); err == nil || !strings.Contains(err.Error(), "no main package or Rust crate") {
		t.Errorf("defaultDirs without plugins = %v", err)
	}
}

// TestReproducible builds each system plugin in a hostile environment
// and requires the bytes committed in smith/internal/sysplugins, which
// scripts/gencheck.sh holds to a build in the ordinary one (so each
// Rust build happens once per suite: they are the slowest part of it).
func TestReproducible(t *testing.T) {
	t.Chdir("../..")
	goVer, err := goVersion()
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := defaultDirs("plugins-src")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-race")
	t.Setenv("GOAMD64", "v3")
	t.Setenv("CGO_ENABLED", "1")
	t.Setenv("RUSTFLAGS", "-C opt-level=0")
	t.Setenv("CARGO_ENCODED_RUSTFLAGS", "-Copt-level=0")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			arts, err := build(dir, t.TempDir(), goVer)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range arts {
				committed, err := os.ReadFile(filepath.Join("smith", "internal", "sysplugins", a.file))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a.wasm, committed) {
					t.Errorf("%s: a build in a hostile environment (%d bytes, SHA-256 %s) differs from the committed artifact (%d bytes); if the sources changed, run go run ./tools/pluginbuild",
						a.name, len(a.wasm), a.sha256, len(committed))
				}
				if want := map[bool]string{true: rustVersion, false: goVer}[isRust(dir)]; a.toolchain != want {
					t.Errorf("%s: toolchain = %q; want %q", a.name, a.toolchain, want)
				}
			}
		})
	}
	if _, err := build("plugins-src", t.TempDir(), goVer); err == nil || !strings.Contains(err.Error(), "neither a Go main package nor a Rust crate") {
		t.Errorf("build of a non-plugin directory = %v", err)
	}
}

// TestFindRustc refuses a rustc of another version, or one without the
// wasm32-wasi standard library, naming what it tried and the fix.
func TestFindRustc(t *testing.T) {
	dir := t.TempDir()
	fake := func(name, version, sysroot string) string {
		p := filepath.Join(dir, name)
		script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '" + version + "'; else echo '" + sysroot + "'; fi\n"
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sysroot := filepath.Join(dir, "sysroot")
	if err := os.MkdirAll(filepath.Join(sysroot, "lib", "rustlib", rustTarget), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		err  []string // substrings of the error; nil means found
	}{
		{name: "pinned", path: fake("good", rustVersion, sysroot)},
		{name: "other-version", path: fake("new", "rustc 1.95.0 (59807616e 2026-04-14)", sysroot),
			err: []string{"new: rustc 1.95.0", "need " + rustVersion, "scripts/deps.sh", "SMITH_RUSTC"}},
		{name: "no-wasm-std", path: fake("bare", rustVersion, dir),
			err: []string{"bare: " + rustVersion + " without the wasm32-wasi standard library"}},
		{name: "missing", path: filepath.Join(dir, "absent"), err: []string{"absent: not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("SMITH_RUSTC", tt.path)
			got, err := findRustc()
			if tt.err == nil {
				if err != nil || got != tt.path {
					t.Fatalf("findRustc = %q, %v; want %q", got, err, tt.path)
				}
				return
			}
			if err == nil {
				t.Fatalf("findRustc = %q; want an error", got)
			}
			for _, s := range tt.err {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

func TestParseVariants(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []variant
		err  string // a substring of the error; "" means no error
	}{
		{name: "two", text: "# c\nproviders-a a # x\n\n  providers-b   b_c\n",
			want: []variant{{name: "providers-a", module: "a"}, {name: "providers-b", module: "b_c"}}},
		{name: "empty", text: "# nothing\n", err: "variants lists no artifact"},
		{name: "one-field", text: "providers-a\n", err: `variants:1: "providers-a": a line is an artifact name and a module`},
		{name: "three-fields", text: "a b c\n", err: "a line is an artifact name and a module"},
		{name: "bad-name", text: "Providers_A a\n", err: `artifact name "Providers_A"`},
		{name: "bad-module", text: "a A-b\n", err: `module "A-b"`},
		{name: "reserved-module", text: "a variant\n", err: `module "variant"`},
		{name: "repeated-name", text: "a x\n\na y\n", err: "variants:3: a y repeats"},
		{name: "repeated-module", text: "a x\nb x\n", err: "variants:2: b x repeats"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseVariants("variants", tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseVariants = %v, %v; want an error containing %q", got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("parseVariants = %v; want %v", got, tt.want)
			}
		})
	}
}

func TestReadVariantsNamesAMissingModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"src/lib.rs": "", "src/a/mod.rs": "", "src/b.rs": "", variantsFile: "x-a a\nx-b b\nx-c c\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := readVariants(dir)
	if err == nil || !strings.Contains(err.Error(), `variant x-c: no module "c"`) {
		t.Fatalf("readVariants = %v; want the missing module c named", err)
	}
	if vs, err := readVariants(t.TempDir()); vs != nil || err != nil {
		t.Errorf("readVariants without a file = %v, %v; want nil, nil", vs, err)
	}
}
