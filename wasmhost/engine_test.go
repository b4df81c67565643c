package wasmhost

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestCompilationCacheOnDisk compiles the same plugin in two engines on one
// directory: the first writes the instrumented module, wazero's compiled
// code and the marker saying it is there (its instances are interpreted
// until then), the second reuses them, writes nothing and runs compiled
// code at once.
func TestCompilationCacheOnDisk(t *testing.T) {
	dir := t.TempDir()
	files := func() []string {
		var out []string
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				out = append(out, path)
			}
			return nil
		})
		return out
	}
	for i := range 2 {
		e := newEngineAt(t, Config{CacheDir: dir})
		gate := make(chan struct{})
		e.bgHook = func() { <-gate }
		p := compile(t, e, "cached", wat(t, "guest"), PluginConfig{})
		_, in := acquire(t, p)
		if got, err := callString(context.Background(), in, ex+"echo", "x"); err != nil || got != "x" {
			t.Fatalf("engine %d: %q, %v", i, got, err)
		}
		if in.interpreted != (i == 0) {
			t.Fatalf("engine %d: instance interpreted %v", i, in.interpreted)
		}
		close(gate)
		in.Release()
		e.Close(context.Background())
		got := files()
		if len(got) != 3 {
			t.Fatalf("after engine %d the cache holds %d files, want 3: %v", i, len(got), got)
		}
		for j, want := range []string{"wasmhost-compiled-", instrumentedDir(), "wazero-"} {
			if !strings.Contains(got[j], want) {
				t.Fatalf("no %s* file cached: %v", want, got)
			}
		}
	}
}

func TestEngineConfigErrors(t *testing.T) {
	if _, err := NewEngine(context.Background(), Config{MemoryLimitPages: 70000}); err == nil || !strings.Contains(err.Error(), "exceeds the wasm32 maximum 65536") {
		t.Fatalf("error %v", err)
	}
	e := newEngine(t, Config{MemoryLimitPages: 100})
	_, err := e.Compile(context.Background(), Artifact{Name: "big", Reader: strings.NewReader("")}, PluginConfig{Budgets: Budgets{MemoryPages: 200}})
	if err == nil || !strings.Contains(err.Error(), "Budgets.MemoryPages 200 exceeds the engine ceiling Config.MemoryLimitPages 100") {
		t.Fatalf("error %v", err)
	}
	if _, err := e.Compile(context.Background(), Artifact{Name: "none"}, PluginConfig{}); err == nil ||
		!strings.Contains(err.Error(), `plugin "none": Artifact.Reader and Artifact.Bytes are nil; pass the module bytes`) {
		t.Fatalf("error %v", err)
	}
}

// TestLyingAllocator checks a guest cabi_realloc returning a pointer
// outside memory fails the call cleanly, re-entrantly from a host function.
func TestLyingAllocator(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "evil", wat(t, "evil"), PluginConfig{})
	g, in := acquire(t, p)
	_, err := callString(context.Background(), in, ex+"echo", "x")
	if he := asError(t, err); !strings.Contains(he.Error(), "cabi_realloc(0, 0, 1, 1) returned 0xfffffff0, which is misaligned or outside linear memory (65536 bytes)") {
		t.Fatalf("error %v", err)
	}
	in.Release()
	in, err = g.Acquire(context.Background(), "evil")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	err = in.Invoke(context.Background(), ex+"greet", func(_ *Call, params []uint64) error {
		params[0], params[1] = 100, 0
		return nil
	}, nil)
	if he := asError(t, err); !strings.Contains(he.Error(), "returned 0xfffffff0") {
		t.Fatalf("error %v", err)
	}
}

// TestCorruptInstrumentedCache checks a damaged cached module is ignored
// and replaced.
func TestCorruptInstrumentedCache(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, Config{CacheDir: dir})
	compile(t, e, "a", wat(t, "guest"), PluginConfig{})
	e.Close(context.Background())
	matches, _ := filepath.Glob(filepath.Join(dir, instrumentedDir(), "*.wasm"))
	if len(matches) != 1 {
		t.Fatalf("cached modules: %v", matches)
	}
	os.WriteFile(matches[0], []byte("\x00asm garbage"), 0o644)
	e = newEngine(t, Config{CacheDir: dir})
	p := compile(t, e, "a", wat(t, "guest"), PluginConfig{})
	_, in := acquire(t, p)
	defer in.Release()
	if got, err := callString(context.Background(), in, ex+"echo", "ok"); err != nil || got != "ok" {
		t.Fatalf("%q, %v", got, err)
	}
	if b, _ := os.ReadFile(matches[0]); string(b) == "\x00asm garbage" {
		t.Fatal("the damaged cache entry was not replaced")
	}
}

func TestHostConfigErrors(t *testing.T) {
	e := newEngine(t, Config{})
	nop := func(context.Context, *Call, []uint64) error { return nil }
	tests := []struct {
		name  string
		hosts []HostModule
		want  string
	}{
		{name: "signature differs from the world", want: `host function "test:echo/host@0.1.0" "greet" has signature (i32) -> () but world test:echo@0.1.0 declares (i32, i32, i32) -> ()`,
			hosts: []HostModule{{Name: hostMod, Funcs: []HostFuncDef{{Name: "greet", Sig: Signature{Params: []ValueType{I32}}, Fn: nop}}}}},
		{name: "reserved module name", want: `host module name "wasi_snapshot_preview1" is reserved`,
			hosts: []HostModule{{Name: "wasi_snapshot_preview1"}}},
		{name: "module twice", want: `host module "m" given twice`,
			hosts: []HostModule{{Name: "m"}, {Name: "m"}}},
		{name: "function twice", want: `host function "m" "f" given twice`,
			hosts: []HostModule{{Name: "m", Funcs: []HostFuncDef{{Name: "f", Fn: nop}, {Name: "f", Fn: nop}}}}},
		{name: "nil function", want: `host function "m" "f" has a nil Fn`,
			hosts: []HostModule{{Name: "m", Funcs: []HostFuncDef{{Name: "f"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Compile(context.Background(), Artifact{Name: "p", Reader: strings.NewReader(string(wat(t, "guest")))},
				PluginConfig{World: testWorld(), Hosts: tt.hosts})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestInstrumentedCacheChecksum checks a cached module damaged in a way
// that still decodes and compiles (one byte of a data segment) is detected
// by its checksum and rewritten, instead of running the damaged code.
func TestInstrumentedCacheChecksum(t *testing.T) {
	dir := t.TempDir()
	e := newEngine(t, Config{CacheDir: dir})
	compile(t, e, "a", wat(t, "guest"), PluginConfig{})
	e.Close(context.Background())
	matches, _ := filepath.Glob(filepath.Join(dir, instrumentedDir(), "*.wasm"))
	if len(matches) != 1 {
		t.Fatalf("cached modules: %v", matches)
	}
	good, _ := os.ReadFile(matches[0])
	bad := bytes.Replace(good, []byte("flood flood"), []byte("flaod flood"), 1)
	if bytes.Equal(bad, good) {
		t.Fatal("the cached module has no data segment to damage")
	}
	os.WriteFile(matches[0], bad, 0o644)
	e = newEngine(t, Config{CacheDir: dir})
	compile(t, e, "a", wat(t, "guest"), PluginConfig{})
	e.Close(context.Background())
	if b, _ := os.ReadFile(matches[0]); !bytes.Equal(b, good) {
		t.Fatal("the damaged cache entry was not replaced")
	}
}

// TestChangedArtifactRecompiles checks an artifact differing in one byte
// from a cached one is instrumented and compiled afresh, never served the
// cached code of the old bytes.
func TestChangedArtifactRecompiles(t *testing.T) {
	dir := t.TempDir()
	old := wat(t, "guest")
	changed := bytes.Replace(old, []byte("flood flood"), []byte("flaod flood"), 1)
	for _, w := range [][]byte{old, changed} {
		e := newEngine(t, Config{CacheDir: dir})
		compile(t, e, "a", w, PluginConfig{})
		e.Close(context.Background())
	}
	matches, _ := filepath.Glob(filepath.Join(dir, instrumentedDir(), "*.wasm"))
	if len(matches) != 2 {
		t.Fatalf("cached instrumented modules: %v, want one per artifact", matches)
	}
	var sawChanged bool
	for _, m := range matches {
		b, _ := os.ReadFile(m)
		sawChanged = sawChanged || bytes.Contains(b, []byte("flaod"))
	}
	if !sawChanged {
		t.Fatal("the changed artifact's instrumented module was not written")
	}
	compiled, _ := filepath.Glob(filepath.Join(dir, "wazero-*", "*"))
	if len(compiled) != 2 {
		t.Fatalf("wazero cache entries: %v, want one per artifact", compiled)
	}
}

// TestConcurrentCompileFromCache: plugins compiled at once from the same
// bytes, after the last holder of the compiled code let it go (so each
// round loads it from the cache directory again), all instantiate and
// run: one compile per module at a time (a second CompileModule while
// wazero finishes a cached module would get it half-made).
func TestConcurrentCompileFromCache(t *testing.T) {
	e := newEngine(t, Config{CacheDir: t.TempDir()})
	wasm := goGuest(t)
	warm := compile(t, e, "warm", wasm, PluginConfig{})
	_ = warm.Close(context.Background())
	for round := range 16 {
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := e.Compile(context.Background(), Artifact{Name: "same", Reader: bytes.NewReader(wasm)},
					PluginConfig{World: testWorld(), Hosts: testHosts(new(atomic.Int64))})
				if err != nil {
					errs <- err
					return
				}
				defer p.Close(context.Background())
				g, err := NewGeneration(p)
				if err != nil {
					errs <- err
					return
				}
				defer g.Close()
				in, err := g.Acquire(context.Background(), "same")
				if err != nil {
					errs <- err
					return
				}
				defer in.Release()
				if got, err := callString(context.Background(), in, ex+"echo", "x"); err != nil || got != "x" {
					errs <- fmt.Errorf("round %d: echo = %q, %v", round, got, err)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}
