package wasmhost

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/tetratelabs/wazero"
)

// A cached instrumented module is the module followed by the CRC-32C of the
// module, little-endian, as wazero checks its own cached machine code. Bump
// the version in instrumentedDir() whenever this format changes.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// instrumentedPath is where the instrumented form of key is cached, or ""
// without a cache directory. Uninstrumented modules and modules
// instrumented ahead of time are not cached: they are the artifact itself.
func (e *Engine) instrumentedPath(key moduleKey) string {
	if e.cacheDir == "" || key.noFuel || key.final {
		return ""
	}
	return filepath.Join(e.cacheDir, instrumentedDir(), hex.EncodeToString(key.sum[:])+".wasm")
}

// readInstrumented returns the cached instrumented module, or nil. The
// cache directory is trusted like wazero's own cache of machine code, and
// checked the same way: a file whose checksum does not match (or that then
// fails to compile) is ignored and rewritten.
func (e *Engine) readInstrumented(key moduleKey) []byte {
	path := e.instrumentedPath(key)
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 4 {
		return nil
	}
	mod, sum := b[:len(b)-4], b[len(b)-4:]
	if crc32.Checksum(mod, castagnoli) != binary.LittleEndian.Uint32(sum) {
		return nil
	}
	return mod
}

// writeInstrumented caches b atomically (temporary file and rename); a
// failure only costs the next start a rewrite.
func (e *Engine) writeInstrumented(key moduleKey, b []byte) {
	path := e.instrumentedPath(key)
	if path == "" {
		return
	}
	dir := filepath.Dir(path)
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)))
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), path) != nil {
		os.Remove(f.Name())
	}
}

// openCache opens wazero's compilation cache in dir, creating dir if
// needed, after checking that it is writable: wazero fails every compile
// whose code it cannot write.
func openCache(dir string) (wazero.CompilationCache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := writable(dir); err != nil {
		return nil, err
	}
	return wazero.NewCompilationCacheWithDir(dir)
}
