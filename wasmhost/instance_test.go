package wasmhost

import (
	"context"
	"testing"
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
