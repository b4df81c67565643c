// Command pluginbuild builds Smith's system plugins reproducibly and pins
// them. A plugin directory is a Rust crate (src/lib.rs), built with
// Debian's rustc 1.63.0 (found at /usr/bin/rustc, in PATH, or at
// $SMITH_RUSTC; scripts/deps.sh installs it) as
//
//	rustc --edition 2021 --crate-type cdylib --target wasm32-wasi \
//	-C opt-level=s -C panic=abort -C codegen-units=1 -C lto=fat \
//	-C target-feature=+bulk-memory,+simd128 \
//	-C strip=symbols -C debuginfo=0 --remap-path-prefix=<repo>=. \
//	--extern smith_plugin=… --extern smith_text=… --extern smith_json=… src/lib.rs
//
// or a wasip1 Go main package, built with
//
//	GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 GOFLAGS= GOTOOLCHAIN=local \
//	go build -buildmode=c-shared -trimpath -ldflags='-s -w' -buildvcs=false
//
// Each is then instrumented for fuel metering (wasmhost.Instrument, so no
// start pays for it) into <out>/<base name of the directory>.wasm, and
// <out>/pins_gen.go records each artifact's size, SHA-256 and toolchain,
// and the instrumentation version, which smith/internal/sysplugins
// verifies at load.
//
// Usage, from the repository root (or with go run -C):
//
//	go run ./tools/pluginbuild            rebuild and write the artifacts
//	go run ./tools/pluginbuild -check     rebuild into a temporary directory and fail on any byte difference
//	go run ./tools/pluginbuild [flags] plugins-src/tools plugins-src/providers
//	go run ./tools/pluginbuild -host-libs DIR   build the library crates for the host (the Rust tests link them)
//
// The library crates under plugins-src/lib (smith_plugin, smith_text,
// smith_json) are built first, as rlibs with the same flags, and linked
// into every plugin with --extern.
//
// Without directories it builds every directory directly under
// plugins-src holding a Go main package or a Rust crate.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	check := flag.Bool("check", false, "rebuild into a temporary directory and exit 1 if any artifact or pins_gen.go differs from -out")
	out := flag.String("out", "smith/internal/sysplugins", "directory the artifacts and pins_gen.go are written to")
	libs := flag.String("host-libs", "", "build the library crates for the host into `dir` and print the rustc flags linking them")
	flag.Parse()
	if *libs != "" {
		flags, err := hostLibs(*libs)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Print(flags)
		return
	}
	dirs := flag.Args()
	if len(dirs) == 0 {
		var err error
		if dirs, err = defaultDirs("plugins-src"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	if err := run(dirs, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
