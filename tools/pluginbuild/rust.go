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
// does not know sign-ext by name and warns.) The tests' wasm builds use the
// same (plugins-src/internal/rustdriver.WasmFeatures).
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

// rustArgs are the rustc arguments building the crate rooted at lib
// (dir/src/lib.rs) into out. Paths under root are remapped to ".", so the
// output does not depend on where the repository is checked out. The
// tests' wasm builds use the same code-generation flags
// (plugins-src/internal/rustdriver.WasmFlags); change both together.
func rustArgs(name, lib, out, root string) []string {
	return []string{
		"--edition", "2021", "--crate-type", "cdylib", "--crate-name", name,
		"--target", rustTarget,
		"-C", "opt-level=s", "-C", "panic=abort", "-C", "codegen-units=1", "-C", "lto=fat",
		"-C", "target-feature=" + rustFeatures,
		"-C", "strip=symbols", "-C", "debuginfo=0",
		"--remap-path-prefix=" + root + "=.",
		"-o", out, lib,
	}
}

// buildRust compiles the Rust crate in dir to tmp/<name>.wasm and returns
// the module's bytes.
func buildRust(dir, name, tmp string) ([]byte, error) {
	rustc, err := findRustc()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: %w", err)
	}
	root, err := repoRoot(abs)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(tmp, name+".wasm")
	cmd := exec.Command(rustc, rustArgs(strings.ReplaceAll(name, "-", "_"), filepath.Join(abs, "src", "lib.rs"), out, root)...)
	cmd.Env = rustEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("pluginbuild: %s %s: %w\n%s", rustc, filepath.Join(dir, "src", "lib.rs"), err, stderr.Bytes())
	}
	if stderr.Len() > 0 {
		return nil, fmt.Errorf("pluginbuild: %s: rustc warned; the system plugins build without warnings:\n%s", dir, stderr.Bytes())
	}
	return os.ReadFile(out)
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
