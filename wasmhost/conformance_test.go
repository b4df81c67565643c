package wasmhost

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestConformance runs the same calls against the WAT and the Go guest,
// compiled and interpreted.
func TestConformance(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	for _, tc := range tierCases {
		e := newEngine(t, Config{tiers: tc.tiers})
		for _, guest := range guests {
			t.Run(tc.name+"/"+guest.name, func(t *testing.T) {
				p := compile(t, e, guest.name, guest.build(t), PluginConfig{})
				_, in := acquire(t, p)
				defer in.Release()
				tests := []struct {
					name, export, arg, want string
				}{
					{name: "empty string", export: "echo", arg: "", want: ""},
					{name: "ascii", export: "echo", arg: "hello", want: "hello"},
					{name: "multibyte", export: "echo", arg: "ünïcödé ✓ 🦀", want: "ünïcödé ✓ 🦀"},
					{name: "1 MiB", export: "echo", arg: big, want: big},
					{name: "re-entrant import", export: "greet", arg: "guest", want: "hello, guest"},
				}
				for _, tt := range tests {
					got, err := callString(context.Background(), in, ex+tt.export, tt.arg)
					if err != nil {
						t.Fatalf("%s: %v", tt.name, err)
					}
					if got != tt.want {
						t.Fatalf("%s: got %d bytes, want %d", tt.name, len(got), len(tt.want))
					}
				}
				var spun uint64
				err := in.Invoke(context.Background(), ex+"spin", func(_ *Call, params []uint64) error {
					params[0] = 1000
					return nil
				}, func(_ *Call, results []uint64) error {
					spun = results[0]
					return nil
				})
				if err != nil || spun == 0 {
					t.Fatalf("spin: %d, %v", spun, err)
				}
			})
		}
	}
}

// TestSandboxIsDeterministic checks what the Go guest sees of the world: the
// same clock and random values in every instance, compiled or interpreted,
// no files, environment or arguments, and stderr in the plugin log.
func TestSandboxIsDeterministic(t *testing.T) {
	e := newEngine(t, Config{})
	var log bytes.Buffer
	p := compile(t, e, "probe", goGuest(t), PluginConfig{Seed: 42, Log: &log})
	interp := compile(t, newEngine(t, Config{tiers: tiersInterpreter}), "probe", goGuest(t), PluginConfig{Seed: 42})
	probe := func(p *Plugin) string {
		g, err := NewGeneration(p)
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		in, err := g.Acquire(context.Background(), "probe")
		if err != nil {
			t.Fatal(err)
		}
		defer in.Release()
		var out string
		if err := in.Invoke(context.Background(), ex+"probe", nil, liftString(&out)); err != nil {
			t.Fatal(err)
		}
		return out
	}
	first, second, third := probe(p), probe(p), probe(interp)
	if first != second || first != third {
		t.Fatalf("three instances (the last interpreted) saw different worlds:\n%s\n%s\n%s", first, second, third)
	}
	for _, want := range []string{`home=""`, "args=0", "file=open /etc/passwd: Bad file number", "dir=0/open /: Bad file number"} {
		if !strings.Contains(first, want) {
			t.Errorf("probe %q lacks %q", first, want)
		}
	}
	if !strings.Contains(first, "time=16409952") {
		t.Errorf("probe %q: the fake wall clock does not start at 2022-01-01", first)
	}
	if !strings.Contains(log.String(), "probe ran\n") {
		t.Errorf("stderr did not reach the plugin log: %q", log.String())
	}

	other := compile(t, e, "probe", goGuest(t), PluginConfig{Seed: 43})
	g, _ := NewGeneration(other)
	defer g.Close()
	in, err := g.Acquire(context.Background(), "probe")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	var out string
	if err := in.Invoke(context.Background(), ex+"probe", nil, liftString(&out)); err != nil {
		t.Fatal(err)
	}
	if out == first {
		t.Fatal("a different seed gave the same random values")
	}
}

// TestInitializeRunsFirst checks _initialize ran before the first export: a
// Go reactor whose runtime is not initialized cannot allocate at all.
func TestInitializeRunsFirst(t *testing.T) {
	e := newEngine(t, Config{})
	var log bytes.Buffer
	p := compile(t, e, "init", goGuest(t), PluginConfig{Log: &log})
	if !p.hasInit {
		t.Fatal("the Go guest's _initialize was not detected")
	}
	_, in := acquire(t, p)
	defer in.Release()
	if got, err := callString(context.Background(), in, ex+"echo", "x"); err != nil || got != "x" {
		t.Fatalf("echo: %q, %v", got, err)
	}
}

func TestHostFunctionErrorDestroysInstance(t *testing.T) {
	e := newEngine(t, Config{})
	hosts := []HostModule{{Name: hostMod, Funcs: []HostFuncDef{
		{Name: "tick", Fn: func(context.Context, *Call, []uint64) error { return nil }},
		{Name: "greet", Sig: Signature{Params: []ValueType{I32, I32, I32}}, Fn: func(context.Context, *Call, []uint64) error {
			return errFileMissing
		}},
	}}}
	for _, guest := range guests {
		p := compile(t, e, guest.name, guest.build(t), PluginConfig{Hosts: hosts})
		g, in := acquire(t, p)
		_, err := callString(context.Background(), in, ex+"greet", "x")
		he := asError(t, err)
		if he.Budget != "" || !strings.Contains(err.Error(), `host function "test:echo/host@0.1.0" "greet": no such file`) {
			t.Fatalf("%s: error %v", guest.name, err)
		}
		in.Release()
		if g.Idle(guest.name) != 0 {
			t.Fatalf("%s: instance reused after a host failure", guest.name)
		}
	}
}

var errFileMissing = &fsError{"no such file"}

type fsError struct{ msg string }

func (e *fsError) Error() string { return e.msg }

func TestOutputBudget(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "out", wat(t, "guest"), PluginConfig{Budgets: Budgets{OutputBytes: 100}})
	_, in := acquire(t, p)
	defer in.Release()
	_, err := callString(context.Background(), in, ex+"echo", strings.Repeat("x", 200))
	if he := asError(t, err); he.Budget != BudgetOutput || !strings.Contains(err.Error(), "its output budget of 100 bytes") {
		t.Fatalf("error %v, want the output budget", err)
	}
}

// TestSleepAdvancesFakeTime checks a guest sleeping an hour returns at once
// and cheaply: sleeping advances the fake clock instead of the guest
// spinning on it.
func TestSleepAdvancesFakeTime(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "sleeper", goGuest(t), PluginConfig{Budgets: Budgets{Fuel: 50_000_000}})
	_, in := acquire(t, p)
	defer in.Release()
	if err := in.Invoke(context.Background(), ex+"sleep", nil, nil); err != nil {
		t.Fatal(err)
	}
}

// TestGoPanicReachesLog checks a panicking Go guest fails the call and its
// panic message lands in the plugin log.
func TestGoPanicReachesLog(t *testing.T) {
	e := newEngine(t, Config{})
	var log bytes.Buffer
	p := compile(t, e, "panicky", goGuest(t), PluginConfig{Log: &log})
	_, in := acquire(t, p)
	defer in.Release()
	err := in.Invoke(context.Background(), ex+"trap", nil, nil)
	if he := asError(t, err); !strings.Contains(he.Error(), "guest trapped") {
		t.Fatalf("error %v", err)
	}
	if !strings.Contains(log.String(), "panic: boom") {
		t.Fatalf("plugin log lacks the panic: %q", log.String())
	}
}

// TestBindingErrorsAreNotTraps checks an error from a lift function is
// reported as such, and destroys the instance.
func TestBindingErrorsAreNotTraps(t *testing.T) {
	e := newEngine(t, Config{})
	p := compile(t, e, "lifted", wat(t, "guest"), PluginConfig{})
	g, in := acquire(t, p)
	bad := &fsError{"invalid variant discriminant 7"}
	err := in.Invoke(context.Background(), ex+"bad-utf8", nil, func(*Call, []uint64) error { return bad })
	if he := asError(t, err); !errors.Is(err, bad) || he.Budget != "" ||
		!strings.Contains(err.Error(), "lift the results: invalid variant discriminant 7") || strings.Contains(err.Error(), "trapped") {
		t.Fatalf("error %v", err)
	}
	in.Release()
	if g.Idle("lifted") != 0 {
		t.Fatal("instance reused after a lift error")
	}
}
