package conformance

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

// oraclePackage is the Go providers plugin (main.go beside src/lib.rs),
// kept as the oracle the Rust plugin is compared with.
const oraclePackage = "github.com/smith-agent/smith/plugins-src/providers"

// built is one plugin build, compiled once per test process.
type built struct {
	once sync.Once
	wasm []byte
	gen  *plugin.Generation
	err  error
}

var (
	// shipped is the providers plugin as smith embeds it: the Rust crate
	// built by tools/pluginbuild (fuel-instrumented).
	shipped built
	// oracle is the Go plugin, built with the standard toolchain.
	oracle built

	shared struct {
		once sync.Once
		dir  string
		host *plugin.Host
		err  error
	}
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, b := range []*built{&shipped, &oracle} {
		if b.gen != nil {
			b.gen.Close()
		}
	}
	if shared.host != nil {
		shared.host.Close(context.Background())
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// host returns the plugin host and scratch directory the builds share:
// the codecs load through the plugin manager, as smith loads them.
func host(tb testing.TB) (*plugin.Host, string) {
	tb.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "providers-realpath-"); shared.err != nil {
			return
		}
		shared.host, shared.err = plugin.Open(context.Background(), plugin.Config{CacheDir: filepath.Join(shared.dir, "cache")})
	})
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
	return shared.host, shared.dir
}

// load compiles the bytes build produces and serves them as "providers";
// instrumented says build's bytes are pluginbuild's fuel-instrumented
// output (as smith embeds them), which the host then takes as they are.
func (b *built) load(tb testing.TB, instrumented bool, build func(dir string) ([]byte, error)) *plugin.Generation {
	tb.Helper()
	h, dir := host(tb)
	b.once.Do(func() {
		if b.wasm, b.err = build(dir); b.err != nil {
			return
		}
		sum := sha256.Sum256(b.wasm)
		a := plugin.Artifact{Name: "providers", Wasm: b.wasm, SHA256: hex.EncodeToString(sum[:])}
		if instrumented {
			a.Instrumented = wasmhost.InstrumentationVersion()
		}
		b.gen, b.err = h.Load(context.Background(), []plugin.Artifact{a})
	})
	if b.err != nil {
		tb.Fatal(b.err)
	}
	return b.gen
}

// codecInstances returns the generation serving the providers plugin as
// smith embeds it, built by tools/pluginbuild from the Rust crate.
func codecInstances(tb testing.TB) *plugin.Generation {
	tb.Helper()
	return shipped.load(tb, true, func(dir string) ([]byte, error) {
		src, err := filepath.Abs("../..")
		if err != nil {
			return nil, err
		}
		out := filepath.Join(dir, "rust")
		cmd := exec.Command("go", "run", "github.com/smith-agent/smith/tools/pluginbuild", "-out", out, src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return nil, errors.New("go run tools/pluginbuild " + src + ": " + err.Error() + "\n" + string(msg))
		}
		return os.ReadFile(filepath.Join(out, "providers.wasm"))
	})
}

// oracleInstances returns the generation serving the Go providers plugin,
// the oracle of the differential tests.
func oracleInstances(tb testing.TB) *plugin.Generation {
	tb.Helper()
	return oracle.load(tb, false, func(dir string) ([]byte, error) {
		out := filepath.Join(dir, "oracle.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, oraclePackage)
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			return nil, errors.New("go build " + oraclePackage + ": " + err.Error() + "\n" + string(msg))
		}
		return os.ReadFile(out)
	})
}
