package openairesp_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// TestRustWasm builds the decoder for the plugin target (wasm32-wasi, a
// cdylib, the plugin build's size and panic settings) with Debian's
// rustc and checks that the module exports the smoke function and does
// not import random_get.
func TestRustWasm(t *testing.T) {
	wasm := rustdriver.BuildWasm(t, filepath.Join("testdata", "wasm_openairesp.rs"))
	if !bytes.Contains(wasm, []byte("openairesp_smoke")) {
		t.Fatalf("openairesp: the wasm build does not export openairesp_smoke")
	}
	// A HashMap's random seed would make the plugin import WASI's
	// random_get, a capability a codec has no use for.
	if bytes.Contains(wasm, []byte("random_get")) {
		t.Fatalf("openairesp: the wasm build imports random_get; keep std's RandomState (HashMap) out of the decoder")
	}
	t.Logf("openairesp: wasm32-wasi cdylib of %d bytes", len(wasm))
}
