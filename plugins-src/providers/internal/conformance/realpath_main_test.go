package conformance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/wasmhost"
)

// oraclePackage is the Go providers plugin (main.go beside src/lib.rs),
// kept as the oracle the Rust plugin is compared with.
const oraclePackage = "github.com/smith-agent/smith/plugins-src/providers"

// built is one plugin build, compiled once per test process.
type built struct {
	once sync.Once
	wasm []byte
	gen  *wasmhost.Generation
	err  error
}

var (
	// plugin is the providers plugin as smith embeds it: the Rust crate
	// built by tools/pluginbuild (fuel-instrumented).
	plugin built
	// oracle is the Go plugin, built with the standard toolchain.
	oracle built

	shared struct {
		once sync.Once
		dir  string
		eng  *wasmhost.Engine
		err  error
	}
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, b := range []*built{&plugin, &oracle} {
		if b.gen != nil {
			b.gen.Close()
		}
	}
	if shared.eng != nil {
		shared.eng.Close(context.Background())
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// engine returns the engine and scratch directory the builds share.
func engine(tb testing.TB) (*wasmhost.Engine, string) {
	tb.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "providers-realpath-"); shared.err != nil {
			return
		}
		shared.eng, shared.err = wasmhost.NewEngine(context.Background(), wasmhost.Config{CacheDir: filepath.Join(shared.dir, "cache")})
	})
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
	return shared.eng, shared.dir
}

// load compiles the bytes build produces and serves them as "providers";
// instrumented says build's bytes are pluginbuild's fuel-instrumented
// output (as smith embeds them), which Compile then takes as they are.
func (b *built) load(tb testing.TB, instrumented bool, build func(dir string) ([]byte, error)) *wasmhost.Generation {
	tb.Helper()
	eng, dir := engine(tb)
	b.once.Do(func() {
		if b.wasm, b.err = build(dir); b.err != nil {
			return
		}
		a := wasmhost.Artifact{Name: "providers", Reader: bytes.NewReader(b.wasm)}
		if instrumented {
			sum := sha256.Sum256(b.wasm)
			a.SHA256, a.Verified, a.Instrumented = hex.EncodeToString(sum[:]), true, wasmhost.InstrumentationVersion()
		}
		p, err := provider.Compile(context.Background(), eng, a)
		if err != nil {
			b.err = err
			return
		}
		b.gen, b.err = wasmhost.NewGeneration(p)
	})
	if b.err != nil {
		tb.Fatal(b.err)
	}
	return b.gen
}

// codecInstances returns the generation serving the providers plugin as
// smith embeds it, built by tools/pluginbuild from the Rust crate.
func codecInstances(tb testing.TB) *wasmhost.Generation {
	tb.Helper()
	return plugin.load(tb, true, func(dir string) ([]byte, error) {
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
func oracleInstances(tb testing.TB) *wasmhost.Generation {
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
