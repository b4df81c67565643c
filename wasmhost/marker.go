package wasmhost

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
)

// wazero cannot say whether its cache holds a module's code without
// loading it, so the engine keeps its own marker, an empty file per
// module, made only after the optimizing compiler compiled that module
// with the cache directory configured, which means wazero had written the
// code (CompileModule fails if it cannot). A marker without wazero's
// entry (a file removed by hand) only costs one synchronous compile; an
// entry without a marker (a process that ended in between) only costs one
// more start on the interpreter, whose background compile then hits
// wazero's cache.

// markerPath is the marker of key, or "" without a cache directory. Its
// directory is named after the wazero version and platform, as wazero
// names its own, so a new wazero (whose cache starts empty) never trusts
// an old marker; its name says which bytes wazero compiled: the artifact
// itself (final, noFuel) or its instrumented form of this build's
// InstrumentationVersion.
func (e *Engine) markerPath(key moduleKey) string {
	if e.cacheDir == "" {
		return ""
	}
	form := InstrumentationVersion()
	switch {
	case key.final:
		form = "final"
	case key.noFuel:
		form = "raw"
	}
	dir := "wasmhost-compiled-" + wazeroVersion() + "-" + runtime.GOARCH + "-" + runtime.GOOS
	return filepath.Join(e.cacheDir, dir, hex.EncodeToString(key.sum[:])+"."+form)
}

// compiledBefore reports whether key's marker exists.
func (e *Engine) compiledBefore(key moduleKey) bool {
	path := e.markerPath(key)
	if path == "" {
		return false
	}
	_, err := os.Stat(path)
	return err == nil
}

// markCompiled makes key's marker; a failure only costs the next start
// its interpreter tier.
func (e *Engine) markCompiled(key moduleKey) {
	path := e.markerPath(key)
	if path == "" {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		_ = os.WriteFile(path, nil, 0o644)
	}
}

// wazeroVersion is the wazero version this binary was built with, as
// wazero finds it for its cache directory: the module's version in the
// build information, "dev" without one.
var wazeroVersion = sync.OnceValue(func() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/tetratelabs/wazero" && dep.Version != "" && dep.Version != "(devel)" {
				return dep.Version
			}
		}
	}
	return "dev"
})
