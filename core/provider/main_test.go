package provider_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/wasmhost"
)

// codecArtifact is the providers plugin Smith ships (built by
// tools/pluginbuild and embedded in the smith binary): the tests run the
// codec users run, not a build of their own.
var codecArtifact = filepath.Join("..", "..", "smith", "internal", "sysplugins", "providers.wasm")

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
		wasm, err := os.ReadFile(codecArtifact)
		if err != nil {
			codec.err = err
			return
		}
		ctx := context.Background()
		if codec.eng, codec.err = wasmhost.NewEngine(ctx, wasmhost.Config{CacheDir: filepath.Join(codec.dir, "cache")}); codec.err != nil {
			return
		}
		p, err := provider.Compile(ctx, codec.eng, wasmhost.Artifact{Name: "providers", Reader: bytes.NewReader(wasm),
			// The committed artifact is instrumented by tools/pluginbuild;
			// its pin is checked where smith embeds it (sysplugins).
			Instrumented: wasmhost.InstrumentationVersion(), Verified: true, SHA256: sha256Hex(wasm)})
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

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
