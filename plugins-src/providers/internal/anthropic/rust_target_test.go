package anthropic_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// TestRustWasm builds the decoder for the plugin target with the plugin
// build's flags (rustdriver.BuildWasm) and checks that the module exports
// the smoke function and does not import random_get (a HashMap's random
// seed would, a capability a codec has no use for).
func TestRustWasm(t *testing.T) {
	wasm := rustdriver.BuildWasm(t, filepath.Join("testdata", "wasm_anthropic.rs"))
	if !bytes.Contains(wasm, []byte("anthropic_smoke")) {
		t.Fatalf("anthropic: the wasm build does not export anthropic_smoke")
	}
	if bytes.Contains(wasm, []byte("random_get")) {
		t.Fatalf("anthropic: the wasm build imports random_get; keep std's RandomState (HashMap) out of the decoder")
	}
	t.Logf("anthropic: wasm32-wasi cdylib of %d bytes", len(wasm))
}
