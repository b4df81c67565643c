package conformance_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/internal/pluginabi/internal/conformance"
	"github.com/smith-agent/smith/wasmhost"
)

// guestPackage is the Go conformance guest, built with the standard toolchain.
const guestPackage = "github.com/smith-agent/smith/wit/internal/conformance/testguest"

var (
	buildOnce sync.Once
	buildDir  string
	goWasm    []byte
	watWasm   []byte
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// guests builds both guests once per test run and returns their bytes.
func guests(tb testing.TB) (goGuest, watGuest []byte) {
	tb.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "conformance-")
		if buildErr != nil {
			return
		}
		goWasm, buildErr = buildGo(filepath.Join(buildDir, "guest.wasm"))
		if buildErr != nil {
			return
		}
		watWasm, buildErr = buildWAT(filepath.Join(buildDir, "guest-wat.wasm"))
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return goWasm, watWasm
}

// buildGo builds the Go guest the way system plugins are built.
func buildGo(out string) ([]byte, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(goBin, "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, guestPackage)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, &buildError{what: "go build " + guestPackage, err: err, out: msg}
	}
	return os.ReadFile(out)
}

// buildWAT assembles the hand-written guest with wabt's wat2wasm.
func buildWAT(out string) ([]byte, error) {
	bin, err := exec.LookPath("wat2wasm")
	if err != nil {
		return nil, &buildError{what: "wat2wasm not found: install wabt (scripts/deps.sh does)", err: err}
	}
	cmd := exec.Command(bin, filepath.Join("testdata", "guest.wat"), "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, &buildError{what: "wat2wasm testdata/guest.wat", err: err, out: msg}
	}
	return os.ReadFile(out)
}

type buildError struct {
	what string
	err  error
	out  []byte
}

func (e *buildError) Error() string { return e.what + ": " + e.err.Error() + "\n" + string(e.out) }

var (
	engineOnce sync.Once
	engine     *wasmhost.Engine
	engineErr  error
)

// sharedEngine returns one engine for the test binary, caching compiled
// code in the build directory.
func sharedEngine(tb testing.TB) *wasmhost.Engine {
	tb.Helper()
	guests(tb)
	engineOnce.Do(func() {
		engine, engineErr = wasmhost.NewEngine(context.Background(), wasmhost.Config{CacheDir: filepath.Join(buildDir, "cache")})
	})
	if engineErr != nil {
		tb.Fatal(engineErr)
	}
	return engine
}

// guestCase is one guest implementation under test.
type guestCase struct {
	name string
	wasm []byte
}

func guestCases(tb testing.TB) []guestCase {
	g, w := guests(tb)
	return []guestCase{{name: "go", wasm: g}, {name: "wat", wasm: w}}
}

// instance compiles wasm with the conformance world and host, and binds a
// fresh instance of it. The host implementation is returned for inspection.
func instance(tb testing.TB, gc guestCase, budgets wasmhost.Budgets) (*conformance.Guest, *hostImpl) {
	tb.Helper()
	h := &hostImpl{}
	mods, err := conformance.HostModules(conformance.Hosts{Host: h})
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	p, err := sharedEngine(tb).Compile(ctx, wasmhost.Artifact{Name: gc.name + "-guest", Reader: bytes.NewReader(gc.wasm)},
		wasmhost.PluginConfig{World: conformance.WorldSpec(), Hosts: mods, Budgets: budgets})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close(ctx) })
	// Measure and hold the compiled code, not the interpreter wasmhost runs
	// while compiling a module its cache does not hold.
	settle, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := sharedEngine(tb).Settle(settle); err != nil {
		tb.Fatal(err)
	}
	gen, err := wasmhost.NewGeneration(p)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(gen.Close)
	in, err := gen.Acquire(ctx, p.Name())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(in.Release)
	return conformance.Bind(in), h
}
