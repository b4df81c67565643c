package wasmhost

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The test world test:echo@0.1.0, as tools/witgen would derive it.
const (
	ex      = "test:echo/api@0.1.0#"
	hostMod = "test:echo/host@0.1.0"
)

func testWorld() WorldSpec {
	str := Signature{Params: []ValueType{I32, I32}, Results: []ValueType{I32}}
	none := Signature{}
	ret := Signature{Results: []ValueType{I32}}
	return WorldSpec{
		Package: "test:echo",
		Version: "0.1.0",
		Imports: []ImportSpec{
			{Module: hostMod, Name: "tick", Sig: none},
			{Module: hostMod, Name: "greet", Sig: Signature{Params: []ValueType{I32, I32, I32}}},
		},
		Exports: []ExportSpec{
			{Name: ex + "echo", Sig: str},
			{Name: ex + "greet", Sig: str, Optional: true},
			{Name: ex + "spin", Sig: Signature{Params: []ValueType{I64}, Results: []ValueType{I64}}, Optional: true},
			{Name: ex + "forever", Sig: none, Optional: true},
			{Name: ex + "ticks", Sig: none, Optional: true},
			{Name: ex + "bomb", Sig: none, Optional: true},
			{Name: ex + "recurse", Sig: Signature{Params: []ValueType{I32}, Results: []ValueType{I32}}, Optional: true},
			{Name: ex + "nest", Sig: Signature{Params: []ValueType{I32}, Results: []ValueType{I32}}, Optional: true},
			{Name: ex + "flood", Sig: none, Optional: true},
			{Name: ex + "bad-utf8", Sig: ret, Optional: true},
			{Name: ex + "out-of-bounds", Sig: ret, Optional: true},
			{Name: ex + "trap", Sig: none, Optional: true},
			{Name: ex + "alloc-many", Sig: Signature{Params: []ValueType{I32}, Results: []ValueType{I32}}, Optional: true},
			{Name: ex + "regex-count", Sig: str, Optional: true},
			{Name: ex + "probe", Sig: ret, Optional: true},
			{Name: ex + "sleep", Sig: none, Optional: true},
		},
	}
}

// testHosts implements the world's imports; ticks counts tick calls.
func testHosts(ticks *atomic.Int64) []HostModule {
	return []HostModule{{Name: hostMod, Funcs: []HostFuncDef{
		{Name: "tick", Fn: func(context.Context, *Call, []uint64) error {
			ticks.Add(1)
			return nil
		}},
		{Name: "greet", Sig: Signature{Params: []ValueType{I32, I32, I32}}, Fn: greet},
	}}}
}

// greet lifts a string, and lowers "hello, <s>" through the guest's
// cabi_realloc, re-entrantly, into the return area.
func greet(_ context.Context, c *Call, stack []uint64) error {
	s, err := c.ReadString(uint32(stack[0]), uint32(stack[1]))
	if err != nil {
		return err
	}
	out := "hello, " + s
	ptr, err := c.Alloc(uint32(len(out)), 1)
	if err != nil {
		return err
	}
	if err := c.WriteString(ptr, out); err != nil {
		return err
	}
	ret := uint32(stack[2])
	if err := c.WriteU32(ret, ptr); err != nil {
		return err
	}
	return c.WriteU32(ret+4, uint32(len(out)))
}

var (
	testDirOnce sync.Once
	testDir     string
	testDirErr  error
	builtMu     sync.Mutex
	built       = map[string][]byte{}
)

// sharedDir is a directory shared by every test of this run; TestMain removes
// it.
func sharedDir(tb testing.TB) string {
	testDirOnce.Do(func() { testDir, testDirErr = os.MkdirTemp("", "wasmhost-test-") })
	if testDirErr != nil {
		tb.Fatal(testDirErr)
	}
	return testDir
}

func TestMain(m *testing.M) {
	if dir := os.Getenv(childDirEnv); dir != "" {
		exitMidCompile(dir)
	}
	if dir := os.Getenv(unwritableEnv); dir != "" {
		printCacheNote(dir)
	}
	code := m.Run()
	if testDir != "" {
		os.RemoveAll(testDir)
	}
	os.Exit(code)
}

// wat compiles testdata/<name>.wat with wabt's wat2wasm, once per run.
func wat(tb testing.TB, name string) []byte {
	tb.Helper()
	builtMu.Lock()
	defer builtMu.Unlock()
	if b, ok := built[name]; ok {
		return b
	}
	if _, err := exec.LookPath("wat2wasm"); err != nil {
		tb.Fatal("wat2wasm not found: install wabt (scripts/deps.sh does; on Debian: apt-get install wabt)")
	}
	out := filepath.Join(sharedDir(tb), strings.ReplaceAll(name, "/", "_")+".wasm")
	cmd := exec.Command("wat2wasm", filepath.Join("testdata", name+".wat"), "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("wat2wasm testdata/%s.wat: %v\n%s", name, err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	built[name] = b
	return b
}

var (
	goGuestOnce sync.Once
	goGuestWasm []byte
	goGuestErr  error
)

// goGuest builds internal/testguest with the standard toolchain, once per
// run (about 20 s cold, a second with a warm build cache).
func goGuest(tb testing.TB) []byte {
	tb.Helper()
	goGuestOnce.Do(func() {
		out := filepath.Join(sharedDir(tb), "testguest.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "./internal/testguest")
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if msg, err := cmd.CombinedOutput(); err != nil {
			goGuestErr = fmt.Errorf("build the Go test guest: %v\n%s", err, msg)
			return
		}
		goGuestWasm, goGuestErr = os.ReadFile(out)
	})
	if goGuestErr != nil {
		tb.Fatal(goGuestErr)
	}
	return goGuestWasm
}

// guests are the two implementations of the test world.
var guests = []struct {
	name  string
	build func(testing.TB) []byte
}{
	{"wat", func(tb testing.TB) []byte { return wat(tb, "guest") }},
	{"go", goGuest},
}

// newEngine returns an engine caching compiled code in this run's shared
// directory, on the optimizing compiler alone unless cfg says otherwise:
// whether a test's first compile of a module is a cache miss depends on
// the tests before it. The tests of the tiers use newEngineAt.
func newEngine(tb testing.TB, cfg Config) *Engine {
	tb.Helper()
	if cfg.CacheDir == "" {
		cfg.CacheDir = filepath.Join(sharedDir(tb), "cache")
	}
	if cfg.tiers == tiersAuto {
		cfg.tiers = tiersCompiler
	}
	e, err := NewEngine(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// newEngineAt returns an engine with exactly cfg, closed when the test
// ends.
func newEngineAt(tb testing.TB, cfg Config) *Engine {
	tb.Helper()
	e, err := NewEngine(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// compile compiles wasm bytes for the test world.
func compile(tb testing.TB, e *Engine, name string, wasm []byte, cfg PluginConfig) *Plugin {
	tb.Helper()
	if cfg.World.Package == "" {
		cfg.World = testWorld()
	}
	if cfg.Hosts == nil {
		cfg.Hosts = testHosts(new(atomic.Int64))
	}
	p, err := e.Compile(context.Background(), Artifact{Name: name, Reader: bytes.NewReader(wasm)}, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// acquire publishes p in a new generation and acquires an instance.
func acquire(tb testing.TB, p *Plugin) (*Generation, *Instance) {
	tb.Helper()
	g, err := NewGeneration(p)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(g.Close)
	in, err := g.Acquire(context.Background(), p.Name())
	if err != nil {
		tb.Fatal(err)
	}
	return g, in
}

// callString calls a string -> string export.
func callString(ctx context.Context, in *Instance, export, arg string) (string, error) {
	var out string
	err := in.Invoke(ctx, export, func(c *Call, params []uint64) error {
		ptr, err := c.Alloc(uint32(len(arg)), 1)
		if err != nil {
			return err
		}
		params[0], params[1] = uint64(ptr), uint64(len(arg))
		return c.WriteString(ptr, arg)
	}, liftString(&out))
	return out, err
}

// liftString lifts a string result from a return area.
func liftString(out *string) func(c *Call, results []uint64) error {
	return func(c *Call, results []uint64) error {
		ret := uint32(results[0])
		ptr, err := c.ReadU32(ret)
		if err != nil {
			return err
		}
		n, err := c.ReadU32(ret + 4)
		if err != nil {
			return err
		}
		*out, err = c.ReadString(ptr, n)
		return err
	}
}

// asError returns err as an *Error or fails the test.
func asError(tb testing.TB, err error) *Error {
	tb.Helper()
	var e *Error
	if !errors.As(err, &e) {
		tb.Fatalf("error %v (%T) is not a *wasmhost.Error", err, err)
	}
	return e
}

// settle waits until no compile runs in e's background, for at most a
// minute.
func (e *Engine) settle(tb testing.TB) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := e.Settle(ctx); err != nil {
		tb.Fatal(err)
	}
}

// tierCases are the two ways an instance runs: on the optimizing
// compiler's code, or on the interpreter's (a compile-cache miss, until
// the background compile is done).
var tierCases = []struct {
	name  string
	tiers tiers
}{{"compiled", tiersCompiler}, {"interpreted", tiersInterpreter}}
