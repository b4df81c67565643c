package wasmhost

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

func TestEchoWAT(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "wat", wat(t, "guest"), PluginConfig{})
	_, in := acquire(t, p)
	defer in.Release()
	for _, s := range []string{"", "hello", "ünïcödé ✓"} {
		got, err := callString(context.Background(), in, ex+"echo", s)
		if err != nil {
			t.Fatal(err)
		}
		if got != s {
			t.Fatalf("echo(%q) = %q", s, got)
		}
	}
	got, err := callString(context.Background(), in, ex+"greet", "wat")
	if err != nil {
		t.Fatal(err)
	}
	if got != "hello, wat" {
		t.Fatalf("greet = %q", got)
	}
}

func TestTrapDestroysInstance(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "wat", wat(t, "guest"), PluginConfig{})
	g, in := acquire(t, p)
	err := in.Invoke(context.Background(), ex+"trap", nil, nil)
	he := asError(t, err)
	if he.Plugin != "wat" || he.Export != ex+"trap" || he.Budget != "" {
		t.Fatalf("error = %+v", he)
	}
	if err := in.Invoke(context.Background(), ex+"echo", nil, nil); err == nil {
		t.Fatal("a trapped instance served another call")
	}
	in.Release()
	if n := g.Idle("wat"); n != 0 {
		t.Fatalf("trapped instance returned to the pool: %d idle", n)
	}
}

// TestDerivedContextOutlivesCall: a host function derives a timer context
// from the context it is given and leaves it running; the timer's own
// goroutine consults the parent after the call has returned, while the
// instance has moved on (its reusable context reset, then set for the next
// call). With -race this fails if that context is not safe for it.
func TestDerivedContextOutlivesCall(t *testing.T) {
	var cancels []context.CancelFunc
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	hosts := testHosts(new(atomic.Int64))
	for i, f := range hosts[0].Funcs {
		if f.Name == "greet" {
			hosts[0].Funcs[i].Fn = func(ctx context.Context, c *Call, stack []uint64) error {
				_, cancel := context.WithTimeout(ctx, time.Millisecond)
				cancels = append(cancels, cancel)
				return greet(ctx, c, stack)
			}
		}
	}
	e := newEngine(t, Config{})
	p := compile(t, e, "derived", wat(t, "guest"), PluginConfig{Hosts: hosts})
	_, in := acquire(t, p)
	defer in.Release()
	for range 20 {
		ctx, cancel := context.WithCancel(context.Background())
		got, err := callString(ctx, in, ex+"greet", "x")
		if err != nil || got != "hello, x" {
			t.Fatalf("greet = %q, %v", got, err)
		}
		time.Sleep(3 * time.Millisecond) // the timer fires after the call
		cancel()
	}
}
