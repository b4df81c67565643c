package gemini_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// TestRustBuildWasm builds the builder and classifier for the plugin
// target with the plugin build's flags (rustdriver.BuildWasm) and checks
// that the module exports the smoke function and imports no random_get.
func TestRustBuildWasm(t *testing.T) {
	wasm := rustdriver.BuildWasm(t, filepath.Join("testdata", "wasm_build_gemini.rs"))
	if !bytes.Contains(wasm, []byte("gemini_build_smoke")) {
		t.Fatalf("gemini: the wasm build does not export gemini_build_smoke")
	}
	if bytes.Contains(wasm, []byte("random_get")) {
		t.Fatalf("gemini: the wasm build of the builder imports random_get; keep std's RandomState (HashMap) out of it")
	}
	t.Logf("gemini: wasm32-wasi cdylib of %d bytes", len(wasm))
}
