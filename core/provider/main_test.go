package provider_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/wasmhost"
)

// codecArtifact is the providers plugin Smith ships (built by
// tools/pluginbuild and embedded in the smith binary): the tests run the
// codec users run, not a build of their own.
var codecArtifact = filepath.Join("..", "..", "smith", "internal", "sysplugins", "providers.wasm")

var codec struct {
	once sync.Once
	dir  string
	host *plugin.Host
	gen  *plugin.Generation
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if codec.gen != nil {
		codec.gen.Close()
	}
	if codec.host != nil {
		codec.host.Close(context.Background())
	}
	if codec.dir != "" {
		os.RemoveAll(codec.dir)
	}
	os.Exit(code)
}

// instances returns the generation serving the shipped codec, loaded
// through the plugin manager as the runtime loads it.
func instances(tb testing.TB) *plugin.Generation {
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
		if codec.host, codec.err = plugin.Open(ctx, plugin.Config{CacheDir: filepath.Join(codec.dir, "cache")}); codec.err != nil {
			return
		}
		sum := sha256.Sum256(wasm)
		codec.gen, codec.err = codec.host.Load(ctx, []plugin.Artifact{{Name: "providers", Wasm: wasm,
			SHA256: hex.EncodeToString(sum[:]), Instrumented: wasmhost.InstrumentationVersion()}})
	})
	if codec.err != nil {
		tb.Fatal(codec.err)
	}
	return codec.gen
}
