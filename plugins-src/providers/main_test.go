package providers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/wasmhost"
)

// shipped are the codec plugins as smith embeds them: this crate built by
// tools/pluginbuild into one artifact per wire format (fuel-instrumented),
// loaded once per test process through the plugin manager, as smith loads
// them.
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

// codecInstances returns the generation serving the codec plugins built
// from this directory's Rust crate, one per wire format (or, for
// benchmarks comparing builds, the providers*.wasm artifacts in the
// directory $SMITH_PROVIDERS_DIR names, such as an earlier
// smith/internal/sysplugins).
func codecInstances(tb testing.TB) *plugin.Generation {
	tb.Helper()
	shipped.once.Do(func() { shipped.err = loadShipped() })
	if shipped.err != nil {
		tb.Fatal(shipped.err)
	}
	return shipped.gen
}

// codecOf returns the codec plugin declaring the provider called name.
func codecOf(tb testing.TB, name string) string {
	tb.Helper()
	d, ok := codecInstances(tb).Provider(name)
	if !ok {
		tb.Fatalf("no codec plugin declares provider %q", name)
	}
	return d.Plugin
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
	out := os.Getenv("SMITH_PROVIDERS_DIR")
	if out == "" {
		out = filepath.Join(dir, "build")
		cmd := exec.Command("go", "run", "github.com/smith-agent/smith/tools/pluginbuild", "-out", out, src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return errors.New("go run tools/pluginbuild " + src + ": " + err.Error() + "\n" + string(msg))
		}
	}
	files, err := filepath.Glob(filepath.Join(out, "providers*.wasm"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no providers*.wasm in %s (%v)", out, err)
	}
	var arts []plugin.Artifact
	for _, f := range files {
		wasm, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(wasm)
		arts = append(arts, plugin.Artifact{Name: strings.TrimSuffix(filepath.Base(f), ".wasm"), Wasm: wasm,
			SHA256: hex.EncodeToString(sum[:]), Instrumented: wasmhost.InstrumentationVersion()})
	}
	if shipped.host, err = plugin.Open(context.Background(), plugin.Config{CacheDir: filepath.Join(dir, "cache")}); err != nil {
		return err
	}
	shipped.gen, err = shipped.host.Load(context.Background(), arts)
	return err
}
