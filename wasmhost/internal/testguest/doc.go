//go:build wasip1

// Command testguest is the Go guest of wasmhost's tests and benchmarks: a
// reactor for the test world test:echo@0.1.0, built with the standard
// toolchain by the tests themselves:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags='-s -w'
//
// It implements the canonical ABI by hand (a pinning cabi_realloc, a static
// return area) and imports encoding/json, regexp, fmt and os so that it is
// about the size of a real Go plugin (≈4 MB). Its files build only for
// wasip1.
package main
