package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRustWideWorld generates bindings for testdata/rustwide/wit, a world
// with the shapes smith:plugin lacks (every scalar, more than 16 flat
// parameters in both directions, flat scalar, char and enum results,
// variants whose cases join different core types, keyword and
// local-colliding names), builds testdata/rustwide against them and
// round-trips values through wasmhost and the test codec.
func TestRustWideWorld(t *testing.T) {
	rustc(t)
	m, err := loadModel("testdata/rustwide/wit", "wide", "")
	if err != nil {
		t.Fatal(err)
	}
	src, err := genRust(m, "testdata/rustwide/wit")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	lib, err := os.ReadFile("testdata/rustwide/src/lib.rs")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"lib.rs": lib, "smith_plugin.rs": src} {
		if err := os.WriteFile(filepath.Join(dir, "src", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wasm, err := buildWasm(filepath.Join(dir, "src", "lib.rs"))
	if err != nil {
		t.Fatal(err)
	}
	echo := func(args []any) any { return args[0] }
	h := &fakeHost{results: map[string]func([]any) any{
		"host.echo-wide": echo, "host.echo-f64": echo, "host.echo-char": echo, "host.echo-s8": echo,
		"host.echo-mixed": echo, "host.echo-level": echo, "host.note-value": func([]any) any { return nil },
	}}
	g := startPlugin(t, m, wasm, h, 0, h.module(t, m, "host"))
	in := g.acquire(t)
	defer in.Release()

	a := []any{true, uint8(200), int8(-5), uint16(65000), int16(-300), uint32(4000000000), int32(-2000000000),
		uint64(1<<63 + 1), int64(-1 << 62), float32(1.5), float64(-2.25), '✓', uint8(7)}
	b := []any{false, uint8(0), int8(127), uint16(1), int16(-32768), uint32(0), int32(-1),
		uint64(0), int64(-1), float32(-0.125), float64(1e300), 'a', uint8(255)}
	mixed := []any{cv{0, float32(1.25)}, cv{1, ^uint64(0)}, cv{2, int8(-7)}, cv{3, 'é'}, cv{4, float64(-0.5)}, cv{5, "s"}, cv{6, nil}}
	type call struct {
		name     string
		fn       string
		args     []any
		want     any
		imported []string
	}
	tests := []call{
		{name: "wide-params-both-ways", fn: "run-wide", args: []any{a, b}, want: []any{b, a}, imported: []string{fmtCall("host.echo-wide", b, a)}},
		{name: "joined-variants", fn: "run-mixed", args: []any{mixed}, want: mixed, imported: func() []string {
			var out []string
			for _, v := range mixed {
				out = append(out, fmtCall("host.echo-mixed", v))
			}
			return out
		}()},
		{name: "flat-scalars", fn: "run-f32", args: []any{float32(2.5), 'x', int8(-3)}, want: float32(2.5), imported: []string{
			fmtCall("host.echo-char", 'x'), fmtCall("host.note-value", uint32('x')),
			fmtCall("host.echo-s8", int8(-3)), fmtCall("host.note-value", uint32(0xfffffffd)),
			fmtCall("host.echo-f64", float64(2.5)),
		}},
		{name: "flat-enum", fn: "run-level", args: []any{cv{1, nil}}, want: cv{1, nil}, imported: []string{fmtCall("host.echo-level", cv{1, nil})}},
		{name: "flat-bool", fn: "run-bool", args: []any{true}, want: false},
	}
	for _, v := range mixed {
		tests = append(tests, call{name: fmt.Sprintf("joined-flat-case-%d", v.(cv).Case), fn: "run-one", args: []any{v}, want: v, imported: []string{fmtCall("host.echo-mixed", v)}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := g.call(t, in, "guest", tt.fn, tt.args...)
			if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", tt.want) {
				t.Errorf("result:\n got %#v\nwant %#v", got, tt.want)
			}
			if calls := h.take(); fmt.Sprint(calls) != fmt.Sprint(tt.imported) {
				t.Errorf("imports:\n got %q\nwant %q", calls, tt.imported)
			}
		})
	}
}
