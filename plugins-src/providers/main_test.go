package providers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/wasmhost"
)

// shipped is the providers plugin as smith embeds it: this crate built by
// tools/pluginbuild (fuel-instrumented), loaded once per test process
// through the plugin manager, as smith loads it.
var shipped struct {
	once sync.Once
	dir  string
	host *plugin.Host
	gen  *plugin.Generation
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shipped.gen != nil {
		shipped.gen.Close()
	}
	if shipped.host != nil {
		shipped.host.Close(context.Background())
	}
	if shipped.dir != "" {
		os.RemoveAll(shipped.dir)
	}
	os.Exit(code)
}

// codecInstances returns the generation serving the providers plugin built
// from this directory's Rust crate (or, for benchmarks comparing builds,
// the artifact $SMITH_PROVIDERS_WASM names).
func codecInstances(tb testing.TB) *plugin.Generation {
	tb.Helper()
	shipped.once.Do(func() { shipped.err = loadShipped() })
	if shipped.err != nil {
		tb.Fatal(shipped.err)
	}
	return shipped.gen
}

func loadShipped() error {
	dir, err := os.MkdirTemp("", "providers-conformance-")
	if err != nil {
		return err
	}
	shipped.dir = dir
	src, err := filepath.Abs(".")
	if err != nil {
		return err
	}
	artifact := os.Getenv("SMITH_PROVIDERS_WASM")
	if artifact == "" {
		out := filepath.Join(dir, "build")
		cmd := exec.Command("go", "run", "github.com/smith-agent/smith/tools/pluginbuild", "-out", out, src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return errors.New("go run tools/pluginbuild " + src + ": " + err.Error() + "\n" + string(msg))
		}
		artifact = filepath.Join(out, "providers.wasm")
	}
	wasm, err := os.ReadFile(artifact)
	if err != nil {
		return err
	}
	if shipped.host, err = plugin.Open(context.Background(), plugin.Config{CacheDir: filepath.Join(dir, "cache")}); err != nil {
		return err
	}
	sum := sha256.Sum256(wasm)
	a := plugin.Artifact{Name: "providers", Wasm: wasm, SHA256: hex.EncodeToString(sum[:]), Instrumented: wasmhost.InstrumentationVersion()}
	shipped.gen, err = shipped.host.Load(context.Background(), []plugin.Artifact{a})
	return err
}
