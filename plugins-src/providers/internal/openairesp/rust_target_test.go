package openairesp_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRustWasm builds the decoder for the plugin target (wasm32-wasi, a
// cdylib, the plugin build's size and panic settings) with Debian's
// rustc and checks that the module exports the smoke function and does
// not import random_get.
func TestRustWasm(t *testing.T) {
	rustc := os.Getenv("SMITH_RUSTC")
	if rustc == "" {
		rustc = "/usr/bin/rustc"
	}
	// Reading the sources the build uses lets go test's cache see them.
	for _, src := range []string{"testdata/wasm_openairesp.rs", "decode.rs", "goquote.rs", "../../../internal/jsonscan/jsonscan.rs",
		"../norm/norm.rs", "../../../tools/src/printable.rs", "../retryhint/retryhint.rs", "../sse/sse.rs"} {
		if _, err := os.ReadFile(src); err != nil {
			t.Fatalf("openairesp: the wasm build's source %s: %v", src, err)
		}
	}
	out := filepath.Join(t.TempDir(), "openairesp.wasm")
	cmd := exec.Command(rustc, "--edition", "2021", "--crate-type", "cdylib", "--crate-name", "openairesp",
		"--target", "wasm32-wasi", "-C", "opt-level=s", "-C", "panic=abort", "-C", "debuginfo=0", "-C", "strip=symbols", "-D", "warnings",
		"-o", out, "testdata/wasm_openairesp.rs")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("openairesp: %s failed (%v); run scripts/deps.sh if rustc 1.63 or its wasm32-wasi std is missing, else fix the Rust code:\n%s", cmd, err, msg)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(wasm, []byte("\x00asm\x01\x00\x00\x00")) {
		t.Fatalf("openairesp: %s is not a wasm module (starts %q)", out, wasm[:min(len(wasm), 8)])
	}
	if !bytes.Contains(wasm, []byte("openairesp_smoke")) {
		t.Fatalf("openairesp: %s does not export openairesp_smoke", out)
	}
	// A HashMap's random seed would make the plugin import WASI's
	// random_get, a capability a codec has no use for.
	if bytes.Contains(wasm, []byte("random_get")) {
		t.Fatalf("openairesp: %s imports random_get; keep std's RandomState (HashMap) out of the decoder", out)
	}
	t.Logf("openairesp: wasm32-wasi cdylib of %d bytes", len(wasm))
}
