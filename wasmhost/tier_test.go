package wasmhost

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestNoCacheDirByDefault checks the zero Config writes nothing to disk:
// no user cache directory, no product name.
func TestNoCacheDirByDefault(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("HOME", home)
	e := newEngineAt(t, Config{})
	p := compile(t, e, "memory", wat(t, "guest"), PluginConfig{})
	_, in := acquire(t, p)
	if got, err := callString(context.Background(), in, ex+"echo", "x"); err != nil || got != "x" {
		t.Fatalf("%q, %v", got, err)
	}
	in.Release()
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if e.CacheDir() != "" || e.CacheNote() != "" {
		t.Fatalf("CacheDir() = %q, CacheNote() = %q; want both empty", e.CacheDir(), e.CacheNote())
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Fatalf("the engine wrote to the user's directories: %v", entries)
	}
}

// TestUnusableCacheDirDegrades checks a cache directory that cannot be
// created or written does not fail the start: the engine compiles in
// memory and its note names the directory, the reason and the fix.
func TestUnusableCacheDirDegrades(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, reason string
	}{
		{name: "under a file", dir: filepath.Join(file, "cache"), reason: "not a directory"},
		{name: "a file", dir: file, reason: "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := NewEngine(context.Background(), Config{CacheDir: tt.dir})
			if err != nil {
				t.Fatalf("NewEngine failed instead of degrading: %v", err)
			}
			defer e.Close(context.Background())
			note := e.CacheNote()
			for _, want := range []string{"wasmhost: compilation cache " + tt.dir + " is unusable", tt.reason, "compiled in memory", "set Config.CacheDir"} {
				if !strings.Contains(note, want) {
					t.Fatalf("CacheNote() = %q; it does not say %q", note, want)
				}
			}
			if e.CacheDir() != "" {
				t.Fatalf("CacheDir() = %q, want \"\"", e.CacheDir())
			}
			p := compile(t, e, "degraded", wat(t, "guest"), PluginConfig{})
			_, in := acquire(t, p)
			defer in.Release()
			if got, err := callString(context.Background(), in, ex+"echo", "x"); err != nil || got != "x" {
				t.Fatalf("%q, %v", got, err)
			}
			if b, err := os.ReadFile(file); err != nil || string(b) != "not a directory" {
				t.Fatalf("the file in the way changed: %q, %v", b, err)
			}
		})
	}
}

// unwritableEnv names the cache directory of TestMain's child mode that
// prints the engine's CacheNote for a directory it may not write.
const unwritableEnv = "WASMHOST_TEST_UNWRITABLE_DIR"

// printCacheNote is that child.
func printCacheNote(dir string) {
	e, err := NewEngine(context.Background(), Config{CacheDir: dir})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString(e.CacheNote())
	os.Exit(0)
}

// TestReadOnlyCacheDirDegrades checks a cache directory the process may
// not write (mode 0555, with wazero's directory already in it, so only
// the writability check can tell) degrades to in-memory compilation with
// a note. Root may write anywhere, so as root the check runs in a child
// process of user nobody.
func TestReadOnlyCacheDirDegrades(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "cache")
	newEngineAt(t, Config{CacheDir: dir}).Close(context.Background())
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil {
			err = os.Chmod(path, 0o555)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) }) // for non-root: let t.TempDir remove it
	var note string
	if os.Geteuid() != 0 {
		e := newEngineAt(t, Config{CacheDir: dir})
		note = e.CacheNote()
	} else {
		// The child needs a copy of the test binary it may execute.
		bin := filepath.Join(base, "wasmhost.test")
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{filepath.Dir(base), base} { // t.TempDir makes them 0700
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "-test.run=^$")
		cmd.Env = append(os.Environ(), unwritableEnv+"="+dir)
		cmd.SysProcAttr = nobody()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("child as nobody: %v", err)
		}
		note = string(out)
	}
	for _, want := range []string{"wasmhost: compilation cache " + dir + " is unusable", "permission denied", "compiled in memory", "set Config.CacheDir"} {
		if !strings.Contains(note, want) {
			t.Fatalf("CacheNote() = %q; it does not say %q", note, want)
		}
	}
}

// TestColdCacheInterpretsWhileCompiling checks the tiers on a cache miss:
// the first instances run interpreted at once; once the background compile
// is done, an interpreted instance is not pooled again and new instances
// run the compiled code; a cache directory then holds the marker, so the
// next engine compiles at once.
func TestColdCacheInterpretsWhileCompiling(t *testing.T) {
	for _, withDir := range []bool{true, false} {
		name := "memory"
		if withDir {
			name = "dir"
		}
		t.Run(name, func(t *testing.T) {
			cfg := Config{}
			if withDir {
				cfg.CacheDir = t.TempDir()
			}
			e := newEngineAt(t, cfg)
			gate := make(chan struct{})
			e.bgHook = func() { <-gate }
			p := compile(t, e, "tiered", wat(t, "guest"), PluginConfig{})
			g, in := acquire(t, p)
			if !in.interpreted {
				t.Fatal("the first instance on an empty cache is compiled code: the compile was not deferred")
			}
			if got, err := callString(context.Background(), in, ex+"echo", "i"); err != nil || got != "i" {
				t.Fatalf("interpreted: %q, %v", got, err)
			}
			close(gate)
			e.settle(t)
			if interp := heldInterp(e, p); !interp {
				t.Fatal("the interpreter's code was released under a live interpreted instance")
			}
			in.Release()
			if n := g.Idle("tiered"); n != 0 {
				t.Fatalf("%d interpreted instances pooled after the compiled code arrived", n)
			}
			if interp := heldInterp(e, p); interp {
				t.Fatal("the interpreter's code outlived the last interpreted instance")
			}
			in, err := g.Acquire(context.Background(), "tiered")
			if err != nil {
				t.Fatal(err)
			}
			if in.interpreted {
				t.Fatal("a new instance after the background compile is interpreted")
			}
			if got, err := callString(context.Background(), in, ex+"echo", "c"); err != nil || got != "c" {
				t.Fatalf("compiled: %q, %v", got, err)
			}
			in.Release()
			if n := g.Idle("tiered"); n != 1 {
				t.Fatalf("%d compiled instances pooled, want 1", n)
			}
			key := p.entry.key
			if e.compiledBefore(key) != withDir {
				t.Fatalf("marker present: %v, want %v", e.compiledBefore(key), withDir)
			}
			if withDir {
				g.Close()
				e.Close(context.Background())
				e2 := newEngineAt(t, cfg)
				p2 := compile(t, e2, "tiered", wat(t, "guest"), PluginConfig{})
				if e2.interpreted(p2.entry) {
					t.Fatal("after a complete compile, a new engine on the directory interprets")
				}
			}
		})
	}
}

// TestPassiveDefersTheOptimizingCompile: a Passive plugin on a cache miss
// runs interpreted and starts no optimizing compile (nothing is written
// to the cache) until Optimize, or a Compile of the same artifact without
// Passive, starts it; once compiled, Optimize does nothing.
func TestPassiveDefersTheOptimizingCompile(t *testing.T) {
	for _, how := range []string{"optimize", "compile"} {
		t.Run(how, func(t *testing.T) {
			cfg := Config{CacheDir: t.TempDir()}
			e := newEngineAt(t, cfg)
			var started atomic.Int32
			e.bgHook = func() { started.Add(1) }
			p := compile(t, e, "passive", wat(t, "guest"), PluginConfig{Passive: true})
			g, in := acquire(t, p)
			if !in.interpreted {
				t.Fatal("a passive plugin on an empty cache runs compiled code")
			}
			if got, err := callString(context.Background(), in, ex+"echo", "i"); err != nil || got != "i" {
				t.Fatalf("interpreted: %q, %v", got, err)
			}
			in.Release()
			e.settle(t)
			if n := started.Load(); n != 0 || e.compiledBefore(p.entry.key) {
				t.Fatalf("a passive plugin started %d optimizing compiles (marker %v)", n, e.compiledBefore(p.entry.key))
			}
			if how == "optimize" {
				p.Optimize()
				p.Optimize()
			} else {
				compile(t, e, "active", wat(t, "guest"), PluginConfig{})
			}
			e.settle(t)
			if n := started.Load(); n != 1 || !e.compiledBefore(p.entry.key) {
				t.Fatalf("after %s: %d optimizing compiles (marker %v); want 1", how, n, e.compiledBefore(p.entry.key))
			}
			// The interpreted instance pooled before the compile gives way.
			if in, err := g.Acquire(context.Background(), "passive"); err != nil || in.interpreted {
				t.Fatalf("Acquire after the optimizing compile = interpreted %v, %v; want a compiled instance", in != nil && in.interpreted, err)
			} else {
				in.Release()
			}
			_, in = acquire(t, p)
			if in.interpreted {
				t.Fatal("an instance after the optimizing compile is interpreted")
			}
			in.Release()
			p.Optimize()
			e.settle(t)
			if n := started.Load(); n != 1 {
				t.Fatalf("Optimize of compiled code started another compile (%d)", n)
			}
		})
	}
}

// TestCloseWaitsForBackgroundCompile checks Close lets a background
// compile finish, so its code reaches the cache directory.
func TestCloseWaitsForBackgroundCompile(t *testing.T) {
	dir := t.TempDir()
	sp := loadSysPlugin(t, "tools")
	e := newEngineAt(t, Config{CacheDir: dir})
	p, err := e.Compile(context.Background(), sp.artifact(), sp.config())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !e.compiledBefore(p.entry.key) {
		t.Fatal("Close returned before the background compile wrote the cache")
	}
	if compiled, _ := filepath.Glob(filepath.Join(dir, "wazero-*", "*")); len(compiled) != 1 {
		t.Fatalf("wazero cache entries: %v, want one", compiled)
	}
}

// TestCloseAbandonsBackgroundCompile checks Close returns at once when its
// context has ended, the compile still runs to its end (writing the
// cache), and the engine is released after it.
func TestCloseAbandonsBackgroundCompile(t *testing.T) {
	dir := t.TempDir()
	sp := loadSysPlugin(t, "tools")
	e := newEngineAt(t, Config{CacheDir: dir})
	gate := make(chan struct{})
	e.bgHook = func() { <-gate }
	p, err := e.Compile(context.Background(), sp.artifact(), sp.config())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	e.modMu.Lock()
	running, later := e.bg.running, e.bg.releaseLater
	e.modMu.Unlock()
	if running != 1 || !later {
		t.Fatalf("after Close, %d background compiles run (release later: %v); want 1, true", running, later)
	}
	if _, err := e.Compile(context.Background(), sp.artifact(), sp.config()); err == nil || !strings.Contains(err.Error(), "the engine is closed") {
		t.Fatalf("Compile after Close: %v", err)
	}
	close(gate)
	e.settle(t)
	if !e.compiledBefore(p.entry.key) {
		t.Fatal("the abandoned compile did not reach the cache")
	}
	// The engine is released: its runtime refuses new work.
	if _, err := e.opt.rt.CompileModule(context.Background(), wat(t, "guest")); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("the optimizing runtime was not released: %v", err)
	}
}

// childDirEnv names the cache directory of TestMain's child mode, which
// exits in the middle of a background compile.
const childDirEnv = "WASMHOST_TEST_EXIT_MID_COMPILE"

// exitMidCompile is the child: it compiles the tools plugin on an empty
// cache, runs a turn interpreted and exits while the optimizing compile
// runs (it takes ~0.1 s, the turn ~2 ms), as a short-lived process does.
func exitMidCompile(dir string) {
	fail := func(err error) {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	ctx := context.Background()
	e, err := NewEngine(ctx, Config{CacheDir: dir})
	if err != nil {
		fail(err)
	}
	sp, err := readSysPlugin("tools")
	if err != nil {
		fail(err)
	}
	p, err := e.Compile(ctx, sp.artifact(), sp.config())
	if err != nil {
		fail(err)
	}
	g, err := NewGeneration(p)
	if err != nil {
		fail(err)
	}
	in, err := g.Acquire(ctx, "tools")
	if err != nil {
		fail(err)
	}
	if !in.interpreted {
		fail(errors.New("the first instance is not interpreted"))
	}
	if err := sp.turn(ctx, in); err != nil {
		fail(err)
	}
	os.Exit(3)
}

// TestProcessEndingMidCompileLeavesCacheCold runs a process that exits
// during the background compile, then checks the cache holds no entry
// (never a partial one) and the next engine starts interpreted again and
// completes the cache.
func TestProcessEndingMidCompileLeavesCacheCold(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("child: %v\n%s", err, out)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "wazero-*", "*"))
	markers, _ := filepath.Glob(filepath.Join(dir, "wasmhost-compiled-*", "*"))
	if len(markers) != 0 {
		t.Fatalf("the child left markers %v", markers)
	}
	for _, f := range entries {
		if !strings.HasSuffix(f, ".tmp") {
			t.Fatalf("the child, ended mid-compile, left the cache entry %s", f)
		}
	}
	sp := loadSysPlugin(t, "tools")
	for _, want := range []bool{true, false} {
		e := newEngineAt(t, Config{CacheDir: dir})
		p, err := e.Compile(context.Background(), sp.artifact(), sp.config())
		if err != nil {
			t.Fatal(err)
		}
		_, in := acquire(t, p)
		if in.interpreted != want {
			t.Fatalf("instance interpreted: %v, want %v", in.interpreted, want)
		}
		if err := sp.turn(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		in.Release()
		e.Close(context.Background())
	}
}

// TestTierSwitchUnderLoad runs turns from several goroutines while the
// background compile lands (it starts once the first turn is done): every
// turn succeeds, on either tier, and the pool moves to compiled instances.
func TestTierSwitchUnderLoad(t *testing.T) {
	sp := loadSysPlugin(t, "tools")
	e := newEngineAt(t, Config{CacheDir: t.TempDir()})
	gate := make(chan struct{})
	var opened sync.Once
	e.bgHook = func() { <-gate }
	cfg := sp.config()
	cfg.MaxInstances = 3
	p, err := e.Compile(context.Background(), sp.artifact(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGeneration(p)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var mu sync.Mutex
	seen := map[bool]int{}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for compiled := 0; compiled < 3; {
				if ctx.Err() != nil {
					errs <- errors.New("the compiled code did not arrive within two minutes")
					return
				}
				in, err := g.Acquire(ctx, "tools")
				if err != nil {
					errs <- err
					return
				}
				err = sp.turn(ctx, in)
				interpreted := in.interpreted
				in.Release()
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				seen[interpreted]++
				mu.Unlock()
				opened.Do(func() { close(gate) }) // let the compile land
				if !interpreted {
					compiled++
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if seen[true] == 0 || seen[false] < 12 {
		t.Fatalf("turns interpreted %d, compiled %d; want some of each", seen[true], seen[false])
	}
	t.Logf("turns interpreted %d, compiled %d", seen[true], seen[false])
}

// heldInterp reports whether p's entry still holds the interpreter's code.
func heldInterp(e *Engine, p *Plugin) bool {
	e.modMu.Lock()
	defer e.modMu.Unlock()
	return p.entry.interp != nil
}
