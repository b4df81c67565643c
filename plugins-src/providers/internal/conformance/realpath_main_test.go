package conformance

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/wasmhost"
)

// codecPackage is the providers plugin, built for the real path tests.
const codecPackage = "github.com/smith-agent/smith/plugins-src/providers"

// realPath is the providers plugin built with the standard toolchain,
// compiled once per test process.
var realPath struct {
	once sync.Once
	dir  string
	wasm []byte
	eng  *wasmhost.Engine
	gen  *wasmhost.Generation
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if realPath.gen != nil {
		realPath.gen.Close()
	}
	if realPath.eng != nil {
		realPath.eng.Close(context.Background())
	}
	if realPath.dir != "" {
		os.RemoveAll(realPath.dir)
	}
	os.Exit(code)
}

// codecInstances builds and compiles the providers plugin and returns the
// generation serving it as "providers".
func codecInstances(tb testing.TB) *wasmhost.Generation {
	tb.Helper()
	realPath.once.Do(func() {
		if realPath.dir, realPath.err = os.MkdirTemp("", "providers-realpath-"); realPath.err != nil {
			return
		}
		out := filepath.Join(realPath.dir, "providers.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, codecPackage)
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			realPath.err = errors.New("go build " + codecPackage + ": " + err.Error() + "\n" + string(msg))
			return
		}
		if realPath.wasm, realPath.err = os.ReadFile(out); realPath.err != nil {
			return
		}
		ctx := context.Background()
		if realPath.eng, realPath.err = wasmhost.NewEngine(ctx, wasmhost.Config{CacheDir: filepath.Join(realPath.dir, "cache")}); realPath.err != nil {
			return
		}
		p, err := provider.Compile(ctx, realPath.eng, wasmhost.Artifact{Name: "providers", Reader: bytes.NewReader(realPath.wasm)})
		if err != nil {
			realPath.err = err
			return
		}
		realPath.gen, realPath.err = wasmhost.NewGeneration(p)
	})
	if realPath.err != nil {
		tb.Fatal(realPath.err)
	}
	return realPath.gen
}
