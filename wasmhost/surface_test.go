package wasmhost

import (
	"slices"
	"strings"
	"testing"
)

// TestReadSurface: the function imports and exports of a module, in
// order (memory is not a function); bytes that are not a module are an
// error naming that.
func TestReadSurface(t *testing.T) {
	s, err := ReadSurface(wat(t, "guest"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Imports) != 3 || s.Imports[1] != (ImportName{Module: "test:echo/host@0.1.0", Name: "tick"}) {
		t.Errorf("imports = %+v", s.Imports)
	}
	if slices.Contains(s.Exports, "memory") || !slices.Contains(s.Exports, "test:echo/api@0.1.0#echo") || !slices.Contains(s.Exports, "cabi_realloc") {
		t.Errorf("exports = %v", s.Exports)
	}
	if _, err := ReadSurface([]byte("not wasm")); err == nil || !strings.Contains(err.Error(), "not a WebAssembly core module") {
		t.Errorf("ReadSurface of text: %v", err)
	}
}

// FuzzReadSurface: any bytes are a surface or an error, never a panic.
func FuzzReadSurface(f *testing.F) {
	f.Add(wat(f, "guest"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ReadSurface(b)
	})
}
