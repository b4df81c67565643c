package provider_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/wasmhost"
)

// codecArtifacts are the provider codec plugins Smith ships, one per wire
// format (built by tools/pluginbuild and embedded in the smith binary):
// the tests run the codecs users run, not a build of their own.
var codecArtifacts = filepath.Join("..", "..", "smith", "internal", "sysplugins", "providers-*.wasm")

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
		files, err := filepath.Glob(codecArtifacts)
		if err != nil || len(files) == 0 {
			codec.err = fmt.Errorf("no codec artifacts %s (%v); run go run ./tools/pluginbuild", codecArtifacts, err)
			return
		}
		var arts []plugin.Artifact
		for _, f := range files {
			wasm, err := os.ReadFile(f)
			if err != nil {
				codec.err = err
				return
			}
			sum := sha256.Sum256(wasm)
			arts = append(arts, plugin.Artifact{Name: strings.TrimSuffix(filepath.Base(f), ".wasm"), Wasm: wasm,
				SHA256: hex.EncodeToString(sum[:]), Instrumented: wasmhost.InstrumentationVersion()})
		}
		ctx := context.Background()
		if codec.host, codec.err = plugin.Open(ctx, plugin.Config{CacheDir: filepath.Join(codec.dir, "cache")}); codec.err != nil {
			return
		}
		codec.gen, codec.err = codec.host.Load(ctx, arts)
	})
	if codec.err != nil {
		tb.Fatal(codec.err)
	}
	return codec.gen
}

// codecOf returns the codec plugin of the shipped generation declaring
// the provider called name.
func codecOf(tb testing.TB, name string) string {
	tb.Helper()
	d, ok := instances(tb).Provider(name)
	if !ok {
		tb.Fatalf("no shipped codec declares provider %q", name)
	}
	return d.Plugin
}
