package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// rustVersion is the one rustc the Rust plugins are built with: Debian
// bookworm's (packages rustc and libstd-rust-dev-wasm32, which
// scripts/deps.sh installs), whose version never moves, so a rebuild is
// byte-identical on any machine. A rustup toolchain is not used even when
// it comes first in PATH: it has another version and usually no
// wasm32-wasi standard library.
const rustVersion = "rustc 1.63.0"

// rustTarget is the target the Rust plugins are built for.
const rustTarget = "wasm32-wasi"

// rustFeatures are the WebAssembly 2.0 features the Rust plugins are
// compiled with beyond the target's MVP default: bulk memory, so memcpy
// and memset become memory.copy and memory.fill, which wazero runs as
// native copies instead of a loop of loads and stores, each bounds-checked
// and fuel-charged; and fixed-width SIMD, which the scanning hot paths use
// (16 bytes per loop turn; wazero compiles it to SSE). The fuel rewrite
// (wasmhost) understands both; wazero enables both by default. (rustc 1.63
// does not know sign-ext by name and warns.)
const rustFeatures = "+bulk-memory,+simd128"

// rustCandidates are where rustc is looked for, in order, after
// $SMITH_RUSTC: Debian's path first, then PATH.
var rustCandidates = []string{"/usr/bin/rustc", "rustc"}

// isRust reports whether dir holds a Rust plugin crate (src/lib.rs).
func isRust(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "src", "lib.rs"))
	return err == nil && st.Mode().IsRegular()
}

// findRustc returns the path of a rustc of rustVersion with the
// wasm32-wasi standard library, or an error naming every rustc tried.
func findRustc() (string, error) {
	cands := rustCandidates
	if env := os.Getenv("SMITH_RUSTC"); env != "" {
		cands = []string{env}
	}
	var tried []string
	for _, c := range cands {
		p, err := exec.LookPath(c)
		if err != nil {
			tried = append(tried, c+": not found")
			continue
		}
		if slices.ContainsFunc(tried, func(s string) bool { return strings.HasPrefix(s, p+":") }) {
			continue
		}
		out, err := exec.Command(p, "--version").Output()
		if err != nil {
			tried = append(tried, p+": --version failed: "+err.Error())
			continue
		}
		v := strings.TrimSpace(string(out))
		if v != rustVersion && !strings.HasPrefix(v, rustVersion+" ") {
			tried = append(tried, p+": "+v)
			continue
		}
		sysroot, err := exec.Command(p, "--print", "sysroot").Output()
		if err != nil {
			tried = append(tried, p+": --print sysroot failed: "+err.Error())
			continue
		}
		if _, err := os.Stat(filepath.Join(strings.TrimSpace(string(sysroot)), "lib", "rustlib", rustTarget)); err != nil {
			tried = append(tried, p+": "+v+" without the "+rustTarget+" standard library")
			continue
		}
		return p, nil
	}
	return "", fmt.Errorf("pluginbuild: the Rust plugins need %s with the %s standard library (Debian's rustc and libstd-rust-dev-wasm32); tried %s; run scripts/deps.sh, or set SMITH_RUSTC to such a rustc",
		rustVersion, rustTarget, strings.Join(tried, "; "))
}

// rustLibs are the library crates every Rust plugin links, in build
// order (each may use the ones before it): plugins-src/lib/<name>/lib.rs,
// built as rlibs and passed to each plugin crate with --extern. A plugin
// crate uses them by name (smith_json::read::Decoder); there is no Cargo.
var rustLibs = []string{"smith_plugin", "smith_text", "smith_json"}

// rustCodegen are the code-generation flags of every wasm build, libraries
// and plugins alike. The tests' builds use the same.
var rustCodegen = []string{
	"-C", "opt-level=s", "-C", "panic=abort", "-C", "codegen-units=1",
	"-C", "target-feature=" + rustFeatures, "-C", "debuginfo=0",
}

// rustArgs are the rustc arguments building the crate rooted at lib
// (dir/src/lib.rs) into out, linking the rlibs in libDir. Paths under
// root are remapped to ".", so the output does not depend on where the
// repository is checked out.
func rustArgs(name, lib, out, root, libDir string) []string {
	args := append(crateArgs(name, root, libDir), rustCodegen...)
	args = append(args, "-C", "lto=fat", "-C", "strip=symbols")
	return append(args, "-o", out, lib)
}

// crateArgs are the rustc arguments of every plugin crate called name,
// built or only checked: the edition, the crate type and target, the
// remapping of root to "." and the library crates in libDir.
func crateArgs(name, root, libDir string) []string {
	args := []string{"--edition", "2021", "--crate-type", "cdylib", "--crate-name", name, "--target", rustTarget,
		"--remap-path-prefix=" + root + "=."}
	return append(args, externs(libDir, len(rustLibs))...)
}

// externs are the flags that let a crate use the first n of rustLibs,
// built into libDir.
func externs(libDir string, n int) []string {
	args := []string{"-L", "dependency=" + libDir}
	for _, l := range rustLibs[:n] {
		args = append(args, "--extern", l+"="+filepath.Join(libDir, "lib"+l+".rlib"))
	}
	return args
}

// buildLibs compiles rustLibs from root/plugins-src/lib into libDir, for
// target (empty: the host, for tests) with extra flags.
func buildLibs(rustc, root, libDir, target string, extra ...string) error {
	if err := os.MkdirAll(libDir, 0o755); err != nil {
		return fmt.Errorf("pluginbuild: %w", err)
	}
	for i, l := range rustLibs {
		src := filepath.Join(root, "plugins-src", "lib", l, "lib.rs")
		args := []string{"--edition", "2021", "--crate-type", "rlib", "--crate-name", l}
		if target != "" {
			args = append(args, "--target", target)
		}
		args = append(args, extra...)
		args = append(args, "--remap-path-prefix="+root+"=.")
		args = append(args, externs(libDir, i)...)
		args = append(args, "-o", filepath.Join(libDir, "lib"+l+".rlib"), src)
		if err := rustc1(rustc, src, args); err != nil {
			return err
		}
	}
	return nil
}

// rustc1 runs one rustc build of src, which must not warn.
func rustc1(rustc, src string, args []string) error {
	cmd := exec.Command(rustc, args...)
	cmd.Env = rustEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pluginbuild: %s %s: %w\n%s", rustc, src, err, stderr.Bytes())
	}
	if stderr.Len() > 0 {
		return fmt.Errorf("pluginbuild: %s: rustc warned; the Rust plugins build without warnings:\n%s", src, stderr.Bytes())
	}
	return nil
}

// buildRust compiles the Rust crate in dir, with the extra rustc flags,
// to tmp/<name>.wasm and returns the module's bytes; the library crates
// are built once into tmp.
func buildRust(dir, name, tmp string, extra []string) ([]byte, error) {
	rustc, root, libDir, lib, err := rustSetup(dir, tmp)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(tmp, name+".wasm")
	args := rustArgs(strings.ReplaceAll(name, "-", "_"), lib, out, root, libDir)
	if err := rustc1(rustc, lib, append(extra, args...)); err != nil {
		return nil, err
	}
	return os.ReadFile(out)
}

// checkRust checks the whole Rust crate in dir (every variant's code at
// once) without generating code; like every build, it must not warn.
func checkRust(dir, tmp string) error {
	rustc, root, libDir, lib, err := rustSetup(dir, tmp)
	if err != nil {
		return err
	}
	args := append(crateArgs("check", root, libDir), "--emit", "metadata", "-o", filepath.Join(tmp, "check.rmeta"), lib)
	return rustc1(rustc, lib, args)
}

// rustSetup finds rustc and the repository root above dir and builds the
// library crates into tmp once; it returns rustc, the root, the
// libraries' directory and the absolute path of the crate's src/lib.rs.
func rustSetup(dir, tmp string) (rustc, root, libDir, lib string, err error) {
	if rustc, err = findRustc(); err != nil {
		return "", "", "", "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", "", "", fmt.Errorf("pluginbuild: %w", err)
	}
	if root, err = repoRoot(abs); err != nil {
		return "", "", "", "", err
	}
	libDir = filepath.Join(tmp, "rlib-"+rustTarget)
	if _, err := os.Stat(libDir); err != nil {
		if err := buildLibs(rustc, root, libDir, rustTarget, rustCodegen...); err != nil {
			return "", "", "", "", err
		}
	}
	return rustc, root, libDir, filepath.Join(abs, "src", "lib.rs"), nil
}

// rustEnv is the environment of a Rust build: the caller's minus what
// changes rustc's output or diagnostics.
func rustEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "RUSTFLAGS" || strings.HasPrefix(k, "RUSTC_") || strings.HasPrefix(k, "CARGO_") || k == "RUST_BACKTRACE" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// repoRoot returns the directory holding go.work above dir: the prefix
// remapped out of the artifact.
func repoRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("pluginbuild: no go.work above " + dir + "; build plugins inside the Smith repository")
		}
		d = parent
	}
}
