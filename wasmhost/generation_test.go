package wasmhost

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestGenerationPoolsInstances(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "echo", wat(t, "guest"), PluginConfig{MaxInstances: 3})
	g, err := NewGeneration(p)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()

	in, err := g.Acquire(context.Background(), "echo")
	if err != nil {
		t.Fatal(err)
	}
	in.Release()
	again, err := g.Acquire(context.Background(), "echo")
	if err != nil {
		t.Fatal(err)
	}
	if again != in {
		t.Fatal("an idle instance was not reused")
	}
	again.Release()

	// Concurrent callers share at most MaxInstances instances, one call each.
	var wg sync.WaitGroup
	seen := sync.Map{}
	for i := range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in, err := g.Acquire(context.Background(), "echo")
			if err != nil {
				t.Error(err)
				return
			}
			defer in.Release()
			seen.Store(in, true)
			s := strconv.Itoa(i)
			if got, err := callString(context.Background(), in, ex+"echo", s); err != nil || got != s {
				t.Errorf("echo(%q) = %q, %v", s, got, err)
			}
		}()
	}
	wg.Wait()
	n := 0
	seen.Range(func(any, any) bool { n++; return true })
	if n > 3 {
		t.Fatalf("%d instances served the calls; MaxInstances is 3", n)
	}
	if idle := g.Idle("echo"); idle != n {
		t.Fatalf("%d idle after all calls, want %d", idle, n)
	}
}

func TestAcquireWaitsForAFreeInstance(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "echo", wat(t, "guest"), PluginConfig{MaxInstances: 1})
	g, _ := NewGeneration(p)
	defer g.Close()
	busy, err := g.Acquire(context.Background(), "echo")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := g.Acquire(ctx, "echo"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second Acquire: %v, want to wait until the context expires", err)
	}
	got := make(chan *Instance)
	go func() {
		in, err := g.Acquire(context.Background(), "echo")
		if err != nil {
			t.Error(err)
		}
		got <- in
	}()
	busy.Release()
	if in := <-got; in != busy {
		t.Fatal("the waiter did not get the released instance")
	} else {
		in.Release()
	}
}

func TestGenerationClose(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "echo", wat(t, "guest"), PluginConfig{})
	g, _ := NewGeneration(p)
	idle, _ := g.Acquire(context.Background(), "echo")
	running, _ := g.Acquire(context.Background(), "echo")
	idle.Release()

	// A call running when the generation closes finishes normally.
	started := make(chan struct{})
	finished := make(chan error)
	go func() {
		finished <- running.Invoke(context.Background(), ex+"spin", func(_ *Call, params []uint64) error {
			close(started)
			params[0] = 20_000_000
			return nil
		}, nil)
	}()
	<-started
	g.Close()
	if err := <-finished; err != nil {
		t.Fatalf("running call failed after Close: %v", err)
	}
	running.Release()
	if n := g.Idle("echo"); n != 0 {
		t.Fatalf("%d instances idle after Close", n)
	}
	if _, err := callString(context.Background(), idle, ex+"echo", "x"); err == nil {
		t.Fatal("an idle instance survived Close")
	}
	if _, err := g.Acquire(context.Background(), "echo"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Acquire after Close: %v", err)
	}
	g.Close() // idempotent
}

func TestGenerationErrors(t *testing.T) {
	e := newEngine(t, Config{})
	a := compile(t, e, "same", wat(t, "guest"), PluginConfig{})
	b := compile(t, e, "same", wat(t, "guest"), PluginConfig{})
	if _, err := NewGeneration(a, b); err == nil || !strings.Contains(err.Error(), `plugin name "same" published twice`) {
		t.Fatalf("duplicate names: %v", err)
	}
	g, _ := NewGeneration(a)
	if _, err := g.Acquire(context.Background(), "other"); err == nil || !strings.Contains(err.Error(), `no plugin "other" in this generation (published: same)`) {
		t.Fatalf("unknown plugin: %v", err)
	}
	in, _ := g.Acquire(context.Background(), "same")
	defer in.Release()
	if !a.HasExport(ex+"echo") || a.HasExport(ex+"probe") {
		t.Fatal("HasExport disagrees with the WAT guest, which has echo but no probe")
	}
	if err := in.Invoke(context.Background(), "nope", nil, nil); err == nil || !strings.Contains(err.Error(), `has no export "nope"`) {
		t.Fatalf("unknown export: %v", err)
	}
	if got, err := callString(context.Background(), in, ex+"echo", "still fine"); err != nil || got != "still fine" {
		t.Fatalf("instance unusable after asking for a missing export: %q, %v", got, err)
	}
}

// TestPluginsShareCompiledCode checks two plugins of the same bytes share
// compiled code and that it outlives the first Close.
func TestPluginsShareCompiledCode(t *testing.T) {
	e := newEngine(t, Config{})
	a := compile(t, e, "a", wat(t, "guest"), PluginConfig{})
	b := compile(t, e, "b", wat(t, "guest"), PluginConfig{Budgets: Budgets{Fuel: 1000}})
	if a.entry != b.entry {
		t.Fatal("the same artifact was compiled twice")
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, in := acquire(t, b)
	defer in.Release()
	if got, err := callString(context.Background(), in, ex+"echo", "b"); err != nil || got != "b" {
		t.Fatalf("echo after the other plugin closed: %q, %v", got, err)
	}
}

// TestGrownInstanceIsRecycled checks an instance whose memory grew past
// RecycleBytes is destroyed on Release rather than pooled.
func TestGrownInstanceIsRecycled(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "grow", wat(t, "guest"), PluginConfig{RecycleBytes: 4 * 65536})
	g, in := acquire(t, p)
	if _, err := callString(context.Background(), in, ex+"echo", "small"); err != nil {
		t.Fatal(err)
	}
	in.Release()
	if g.Idle("grow") != 1 {
		t.Fatal("a small instance was not pooled")
	}
	in, _ = g.Acquire(context.Background(), "grow")
	if _, err := callString(context.Background(), in, ex+"echo", strings.Repeat("x", 5*65536)); err != nil {
		t.Fatal(err)
	}
	in.Release()
	if g.Idle("grow") != 0 {
		t.Fatal("an instance past RecycleBytes went back to the pool")
	}
}

// TestHostModulesArePerPlugin gives two plugins of the same artifact
// different implementations of one import: each sees its own.
func TestHostModulesArePerPlugin(t *testing.T) {
	e := newEngine(t, Config{})
	hosts := func(greeting string) []HostModule {
		return []HostModule{{Name: hostMod, Funcs: []HostFuncDef{
			{Name: "tick", Fn: func(context.Context, *Call, []uint64) error { return nil }},
			{Name: "greet", Sig: Signature{Params: []ValueType{I32, I32, I32}}, Fn: func(_ context.Context, c *Call, stack []uint64) error {
				ptr, err := c.Alloc(uint32(len(greeting)), 1)
				if err != nil {
					return err
				}
				if err := c.WriteString(ptr, greeting); err != nil {
					return err
				}
				if err := c.WriteU32(uint32(stack[2]), ptr); err != nil {
					return err
				}
				return c.WriteU32(uint32(stack[2])+4, uint32(len(greeting)))
			}},
		}}}
	}
	a := compile(t, e, "a", wat(t, "guest"), PluginConfig{Hosts: hosts("from a")})
	b := compile(t, e, "b", wat(t, "guest"), PluginConfig{Hosts: hosts("from b")})
	g, err := NewGeneration(a, b)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, name := range []string{"a", "b"} {
		in, err := g.Acquire(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := callString(context.Background(), in, ex+"greet", "")
		in.Release()
		if err != nil || got != "from "+name {
			t.Fatalf("plugin %s: %q, %v", name, got, err)
		}
	}
}

// TestReentrantInvokeRefused checks a host function calling back into the
// instance it serves gets an error instead of corrupting the call.
func TestReentrantInvokeRefused(t *testing.T) {
	e := newEngine(t, Config{})
	var in *Instance
	var inner error
	hosts := []HostModule{{Name: hostMod, Funcs: []HostFuncDef{
		{Name: "tick", Fn: func(context.Context, *Call, []uint64) error { return nil }},
		{Name: "greet", Sig: Signature{Params: []ValueType{I32, I32, I32}}, Fn: func(ctx context.Context, c *Call, stack []uint64) error {
			inner = in.Invoke(ctx, ex+"echo", nil, nil)
			return greet(ctx, c, stack)
		}},
	}}}
	p := compile(t, e, "reentrant", wat(t, "guest"), PluginConfig{Hosts: hosts})
	_, in = acquire(t, p)
	defer in.Release()
	if got, err := callString(context.Background(), in, ex+"greet", "x"); err != nil || got != "hello, x" {
		t.Fatalf("%q, %v", got, err)
	}
	if inner == nil || !strings.Contains(inner.Error(), "while another call is in flight on this instance") {
		t.Fatalf("re-entrant Invoke: %v", inner)
	}
}
