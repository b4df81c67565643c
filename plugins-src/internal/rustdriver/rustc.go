package rustdriver

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rustcVersion is the version tools/pluginbuild builds the plugins with.
const rustcVersion = "rustc 1.63.0"

// rustc returns the compiler to build with: $SMITH_RUSTC, else
// /usr/bin/rustc, after checking that it is version 1.63.0.
func rustc() (string, error) {
	p := os.Getenv("SMITH_RUSTC")
	if p == "" {
		p = "/usr/bin/rustc"
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), rustcVersion) {
		return "", fmt.Errorf("rustdriver: the Rust tests need Debian's %s at %s (it reports %q, error %v); run scripts/deps.sh, or set SMITH_RUSTC to such a rustc",
			rustcVersion, p, bytes.TrimSpace(out), err)
	}
	return p, nil
}

// compile builds root into out with rustc, --edition 2021, -D warnings
// and args. It runs in the test's working directory, so root and the
// driver's #[path] attributes resolve as the test sees them. It then
// reads every source file the build used (and stats rustc), so go test's
// cache, which sees only the files the test process itself consults,
// reruns the test when one of them changes.
func compile(root, out string, args ...string) error {
	p, err := rustc()
	if err != nil {
		return err
	}
	deps := out + ".d"
	all := append([]string{"--edition", "2021", "-D", "warnings", "-o", out, "--emit=link,dep-info=" + deps}, args...)
	all = append(all, root)
	if msg, err := tether(exec.Command(p, all...)).CombinedOutput(); err != nil {
		return fmt.Errorf("rustdriver: building %s failed (%v); fix the Rust code rustc shows:\n%s %s\n%s", root, err, p, strings.Join(all, " "), msg)
	}
	return consult(p, deps)
}

// consult stats rustc and reads each source file the dep-info file deps
// lists (one "path:" line each, spaces escaped), which is how go test
// learns that the test's result depends on them.
func consult(rustc, deps string) error {
	if _, err := os.Stat(rustc); err != nil {
		return fmt.Errorf("rustdriver: %w", err)
	}
	info, err := os.ReadFile(deps)
	if err != nil {
		return fmt.Errorf("rustdriver: rustc's dependency list: %w", err)
	}
	n := 0
	for _, line := range strings.Split(string(info), "\n") {
		src, ok := strings.CutSuffix(line, ":")
		if !ok || strings.HasPrefix(line, "#") || strings.Contains(strings.ReplaceAll(src, "\\ ", ""), " ") {
			continue // a rule with prerequisites, a comment, or no rule
		}
		if _, err := os.ReadFile(strings.ReplaceAll(src, "\\ ", " ")); err != nil {
			return fmt.Errorf("rustdriver: a source file rustc used, listed in %s: %w", deps, err)
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("rustdriver: rustc's dependency list %s names no source file:\n%s", deps, info)
	}
	return nil
}

// RunTests builds root with --test (and args) and runs the #[test]
// functions it holds; tb fails with their output if one fails or if there
// are none.
func RunTests(tb testing.TB, root string, args ...string) {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "rust-tests")
	if err := compile(root, bin, append([]string{"--test"}, args...)...); err != nil {
		tb.Fatal(err)
	}
	out, err := tether(exec.Command(bin)).CombinedOutput()
	if err != nil {
		tb.Fatalf("rustdriver: the Rust tests in %s failed (%v):\n%s", root, err, out)
	}
	if !bytes.Contains(out, []byte("test result: ok.")) || bytes.Contains(out, []byte("test result: ok. 0 passed")) {
		tb.Fatalf("rustdriver: %s holds no tests; add a #[cfg(test)] mod tests with #[test] functions:\n%s", root, out)
	}
}

// WasmFeatures are the WebAssembly features the plugins are built with
// (tools/pluginbuild's rustFeatures): bulk memory and fixed-width SIMD.
const WasmFeatures = "+bulk-memory,+simd128"

// WasmFlags are the code-generation flags tools/pluginbuild builds a Rust
// plugin with (its rustArgs): BuildWasm uses the same, so a test or
// benchmark of a wasm build sees what the plugin will be.
var WasmFlags = []string{"--crate-type", "cdylib", "--target", "wasm32-wasi",
	"-C", "opt-level=s", "-C", "panic=abort", "-C", "codegen-units=1", "-C", "lto=fat",
	"-C", "target-feature=" + WasmFeatures,
	"-C", "strip=symbols", "-C", "debuginfo=0"}

// BuildWasm builds root as a wasm32-wasi cdylib with [WasmFlags] (and
// -D warnings) and returns the module, before the fuel instrumentation
// pluginbuild adds. tb fails as for [Start] when rustc is missing or the
// build fails.
func BuildWasm(tb testing.TB, root string) []byte {
	tb.Helper()
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, strings.TrimSuffix(filepath.Base(root), ".rs"))
	out := filepath.Join(tb.TempDir(), name+".wasm")
	if err := compile(root, out, append([]string{"--crate-name", name}, WasmFlags...)...); err != nil {
		tb.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x00asm\x01\x00\x00\x00")) {
		tb.Fatalf("rustdriver: %s built from %s is not a core wasm module (it starts %q)", out, root, b[:min(len(b), 8)])
	}
	return b
}
