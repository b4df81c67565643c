package provider_test

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

// codecPackage is the real providers plugin; the tests build it with the
// standard toolchain once per process.
const codecPackage = "github.com/smith-agent/smith/plugins-src/providers"

var codec struct {
	once sync.Once
	dir  string
	eng  *wasmhost.Engine
	gen  *wasmhost.Generation
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if codec.gen != nil {
		codec.gen.Close()
	}
	if codec.eng != nil {
		codec.eng.Close(context.Background())
	}
	if codec.dir != "" {
		os.RemoveAll(codec.dir)
	}
	os.Exit(code)
}

func instances(tb testing.TB) *wasmhost.Generation {
	tb.Helper()
	codec.once.Do(func() {
		if codec.dir, codec.err = os.MkdirTemp("", "core-provider-"); codec.err != nil {
			return
		}
		out := filepath.Join(codec.dir, "providers.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, codecPackage)
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			codec.err = errors.New("go build " + codecPackage + ": " + err.Error() + "\n" + string(msg))
			return
		}
		wasm, err := os.ReadFile(out)
		if err != nil {
			codec.err = err
			return
		}
		ctx := context.Background()
		if codec.eng, codec.err = wasmhost.NewEngine(ctx, wasmhost.Config{CacheDir: filepath.Join(codec.dir, "cache")}); codec.err != nil {
			return
		}
		p, err := provider.Compile(ctx, codec.eng, wasmhost.Artifact{Name: "providers", Reader: bytes.NewReader(wasm)})
		if err != nil {
			codec.err = err
			return
		}
		codec.gen, codec.err = wasmhost.NewGeneration(p)
	})
	if codec.err != nil {
		tb.Fatal(codec.err)
	}
	return codec.gen
}
