package conformance_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi/internal/conformance"
	"github.com/smith-agent/smith/wasmhost"
)

// hostileGuest assembles a guest of the conformance world whose exports
// trap, except the ones given, which return hostile values.
func hostileGuest(t *testing.T, bodies map[string]string) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString("(module\n(import \"[export]smith:conformance/guest@0.0.0\" \"[resource-new]accumulator\" (func $new (param i32) (result i32)))\n")
	b.WriteString("(import \"smith:conformance/host@0.0.0\" \"check-text\" (func $check (param i32 i32 i32)))\n")
	b.WriteString("(memory (export \"memory\") 1)\n")
	b.WriteString("(data (i32.const 64) \"\\ff\\fe\")\n")
	b.WriteString("(func (export \"cabi_realloc\") (param i32 i32 i32 i32) (result i32) (i32.const 1024))\n")
	types := map[wasmhost.ValueType]string{wasmhost.I32: "i32", wasmhost.I64: "i64", wasmhost.F32: "f32", wasmhost.F64: "f64"}
	for _, e := range conformance.WorldSpec().Exports {
		fmt.Fprintf(&b, "(func (export %q)", e.Name)
		for _, p := range e.Sig.Params {
			b.WriteString(" (param " + types[p] + ")")
		}
		for _, r := range e.Sig.Results {
			b.WriteString(" (result " + types[r] + ")")
		}
		body, ok := bodies[strings.TrimPrefix(e.Name, "smith:conformance/guest@0.0.0#")]
		if !ok {
			body = "unreachable"
		}
		b.WriteString(" " + body + ")\n")
	}
	b.WriteString(")\n")
	dir := t.TempDir()
	src, out := filepath.Join(dir, "hostile.wat"), filepath.Join(dir, "hostile.wasm")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("wat2wasm", src, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("wat2wasm: %v\n%s\n%s", err, msg, b.String())
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return wasm
}

// TestHostileResults checks that values a guest returns are lifted with
// every pointer, length, alignment, discriminant and UTF-8 checked: the
// call fails with an error naming the problem, the instance is destroyed,
// and the host carries on.
func TestHostileResults(t *testing.T) {
	tests := []struct {
		name string
		// body of the export under test, in WAT
		export, body string
		call         func(context.Context, *conformance.Guest) error
		want         string
	}{
		{name: "result-area-out-of-bounds", export: "probe-text", body: "(i32.const 0xfffffff0)",
			call: func(ctx context.Context, g *conformance.Guest) error { _, err := g.ProbeText(ctx, "x"); return err },
			want: "outside linear memory"},
		{name: "result-area-misaligned", export: "probe-text", body: "(i32.const 1026)",
			call: func(ctx context.Context, g *conformance.Guest) error { _, err := g.ProbeText(ctx, "x"); return err },
			want: "not aligned to 4 bytes"},
		{name: "bad-result-discriminant", export: "probe-text", body: "(i32.store8 (i32.const 2048) (i32.const 7)) (i32.const 2048)",
			call: func(ctx context.Context, g *conformance.Guest) error { _, err := g.ProbeText(ctx, "x"); return err },
			want: "discriminant 7 is not below its 2 cases"},
		{name: "bad-variant-case", export: "probe-text",
			body: "(i32.store8 (i32.const 2048) (i32.const 1)) (i32.store8 (i32.const 2052) (i32.const 9)) (i32.const 2048)",
			call: func(ctx context.Context, g *conformance.Guest) error { _, err := g.ProbeText(ctx, "x"); return err },
			want: "fault: discriminant 9 is not below its 3 cases"},
		{name: "string-out-of-bounds", export: "probe-shape",
			body: "(i32.store8 (i32.const 2048) (i32.const 1)) (i32.store (i32.const 2052) (i32.const 65000)) (i32.store (i32.const 2056) (i32.const 1000)) (i32.const 2048)",
			call: func(ctx context.Context, g *conformance.Guest) error {
				_, err := g.ProbeShape(ctx, conformance.Shape{})
				return err
			},
			want: "outside linear memory"},
		{name: "invalid-utf8", export: "probe-shape",
			body: "(i32.store8 (i32.const 2048) (i32.const 1)) (i32.store (i32.const 2052) (i32.const 64)) (i32.store (i32.const 2056) (i32.const 2)) (i32.const 2048)",
			call: func(ctx context.Context, g *conformance.Guest) error {
				_, err := g.ProbeShape(ctx, conformance.Shape{})
				return err
			},
			want: "UTF-8"},
		{name: "list-length-wraps", export: "[method]accumulator.drain",
			body: "(i32.store8 (i32.const 2048) (i32.const 0)) (i32.store (i32.const 2052) (i32.const 8)) (i32.store (i32.const 2056) (i32.const 0x7fffffff)) (i32.const 2048)",
			call: func(ctx context.Context, g *conformance.Guest) error {
				acc, err := g.NewAccumulator(ctx, "a")
				if err != nil {
					return err
				}
				_, err = acc.Drain(ctx)
				return err
			},
			want: "beyond the 4 GiB"},
		{name: "invented-own-handle", export: "open-counter", body: "(i32.const 77)",
			call: func(ctx context.Context, g *conformance.Guest) error { _, err := g.OpenCounter(ctx, 1); return err },
			want: "counter handle 77 is not in the instance's table"},
		{name: "invented-resource", export: "[constructor]accumulator", body: "(i32.const 9)",
			call: func(ctx context.Context, g *conformance.Guest) error {
				_, err := g.NewAccumulator(ctx, "a")
				return err
			},
			want: "accumulator handle 9 is not in the instance's table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bodies := map[string]string{"[constructor]accumulator": "(call $new (i32.const 5))"}
			bodies[tt.export] = tt.body
			wasm := hostileGuest(t, bodies)
			g, _ := instance(t, guestCase{name: "hostile", wasm: wasm}, wasmhost.Budgets{})
			err := tt.call(context.Background(), g)
			var we *wasmhost.Error
			if !errors.As(err, &we) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v; want a *wasmhost.Error containing %q", err, tt.want)
			}
			if _, err := g.ProbeText(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "destroyed") {
				t.Errorf("call after the failure = %v; want the instance destroyed", err)
			}
		})
	}
}

// TestCoreInterfaceRequired checks that the host must serve every
// non-capability import: there is nothing to grant for it.
func TestCoreInterfaceRequired(t *testing.T) {
	_, err := conformance.HostModules(conformance.Hosts{})
	if err == nil || !strings.Contains(err.Error(), "Hosts.Host is nil") {
		t.Errorf("HostModules without the core host = %v; want an error naming Hosts.Host", err)
	}
}

// TestMisalignedReturnArea: a guest importing a function whose result goes
// through memory must pass an aligned return area.
func TestMisalignedReturnArea(t *testing.T) {
	wasm := hostileGuest(t, map[string]string{
		"probe-text": "(call $check (i32.const 0) (i32.const 1) (i32.const 1027)) (i32.const 2048)",
	})
	g, _ := instance(t, guestCase{name: "hostile", wasm: wasm}, wasmhost.Budgets{})
	_, err := g.ProbeText(context.Background(), "x")
	var we *wasmhost.Error
	if !errors.As(err, &we) || !strings.Contains(err.Error(), "return area 0x403 is not aligned to 4 bytes") {
		t.Fatalf("error = %v; want a *wasmhost.Error naming the misaligned return area", err)
	}
}
