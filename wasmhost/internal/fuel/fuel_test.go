package fuel

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetratelabs/wabin/binary"
	"github.com/tetratelabs/wabin/leb128"
	"github.com/tetratelabs/wabin/wasm"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// wat2wasm compiles testdata/<name>.wat.
func wat2wasm(t testing.TB, name string) []byte {
	t.Helper()
	if _, err := exec.LookPath("wat2wasm"); err != nil {
		t.Fatal("wat2wasm not found: install wabt (scripts/deps.sh does; on Debian: apt-get install wabt)")
	}
	out := filepath.Join(t.TempDir(), name+".wasm")
	if msg, err := exec.Command("wat2wasm", filepath.Join("testdata", name+".wat"), "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("wat2wasm: %v\n%s", err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func instrument(t testing.TB, b []byte) ([]byte, Stats) {
	t.Helper()
	m, err := binary.DecodeModule(b, wasm.CoreFeaturesV2)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Instrument(m)
	if err != nil {
		t.Fatal(err)
	}
	return binary.EncodeModule(m), st
}

// counters is a host fuel module that counts what the guest asks of it.
type counters struct {
	yields, grows, deep int
}

func run(t *testing.T, code []byte) (api.Module, *counters) {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	t.Cleanup(func() { r.Close(ctx) })
	c := &counters{}
	_, err := r.NewHostModuleBuilder(Module).
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(_ context.Context, m api.Module, _ []uint64) {
		c.yields++
		m.ExportedGlobal(GlobalExport).(api.MutableGlobal).Set(100 - 1)
	}), nil, nil).Export(YieldName).
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(_ context.Context, m api.Module, stack []uint64) {
		c.grows++
		prev, ok := m.Memory().Grow(uint32(stack[0]))
		if !ok {
			stack[0] = uint64(uint32(0xffffffff))
			return
		}
		stack[0] = uint64(prev)
	}), []api.ValueType{api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).Export(GrowName).
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) {
		c.deep++
		panic("too deep")
	}), nil, nil).Export(DepthName).
		Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Instantiate(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	return m, c
}

func TestInstrumentKeepsSemantics(t *testing.T) {
	code, st := instrument(t, wat2wasm(t, "control"))
	if st.Functions != 6 || st.Leaves != 3 || st.LoopHeaders != 1 || st.Grows != 1 {
		t.Fatalf("stats %+v, want 6 charged functions, 3 leaves (one with the loop), 1 loop header, 1 grow", st)
	}
	m, c := run(t, code)
	depth := m.ExportedGlobal(DepthExport)
	tests := []struct {
		name   string
		export string
		params []uint64
		want   []uint64
	}{
		{name: "return from nested blocks", export: "early", params: []uint64{11}, want: []uint64{1}},
		{name: "fall off the end", export: "early", params: []uint64{3}, want: []uint64{2}},
		{name: "multi-value return", export: "pair", params: []uint64{1}, want: []uint64{3, 4}},
		{name: "multi-value end", export: "pair", params: []uint64{0}, want: []uint64{5, 6}},
		{name: "br_if to the function label", export: "branch", params: []uint64{1}, want: []uint64{7}},
		{name: "br to the function label", export: "branch", params: []uint64{0}, want: []uint64{8}},
		{name: "br_table default to the function label", export: "table", params: []uint64{5}, want: []uint64{10}},
		{name: "br_table to a block", export: "table", params: []uint64{0}, want: []uint64{11}},
		{name: "recursion through call_indirect", export: "fact", params: []uint64{10}, want: []uint64{3628800}},
		{name: "loop", export: "loops", params: []uint64{1000}, want: []uint64{1000}},
		{name: "dead code after return", export: "dead", want: []uint64{12}},
		{name: "memory.grow", export: "grow", params: []uint64{2}, want: []uint64{1}},
	}
	for _, tt := range tests {
		got, err := m.ExportedFunction(tt.export).Call(context.Background(), tt.params...)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%s: got %v, want %v", tt.name, got, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Fatalf("%s: got %v, want %v", tt.name, got, tt.want)
			}
		}
		if d := depth.Get(); d != InitialDepth {
			t.Fatalf("%s: depth global %d after the call, want %d: a level was not given back", tt.name, d, InitialDepth)
		}
	}
	if c.grows != 1 {
		t.Fatalf("memory.grow reached the host %d times, want 1", c.grows)
	}
	if c.yields == 0 {
		t.Fatal("the fuel counter started at zero and never yielded")
	}
}

// TestFuelCounting checks one unit per loop iteration and per entry of a
// function that calls (loops, a leaf, pays no entry).
func TestFuelCounting(t *testing.T) {
	code, _ := instrument(t, wat2wasm(t, "control"))
	m, c := run(t, code)
	g := m.ExportedGlobal(GlobalExport).(api.MutableGlobal)
	g.Set(1_000_000)
	if _, err := m.ExportedFunction("loops").Call(context.Background(), 500); err != nil {
		t.Fatal(err)
	}
	if used := 1_000_000 - g.Get(); used != 500 {
		t.Fatalf("loops(500) used %d units, want 500 (its iterations; a leaf's entry is free)", used)
	}
	g.Set(1_000_000)
	if _, err := m.ExportedFunction("fact").Call(context.Background(), 5); err != nil {
		t.Fatal(err)
	}
	if used := 1_000_000 - g.Get(); used != 5 {
		t.Fatalf("fact(5) used %d units, want 5 entries", used)
	}
	if c.yields != 0 {
		t.Fatalf("%d yields with a full counter", c.yields)
	}
}

// TestFuelAcrossYields checks the charge that finds the slice spent is
// paid from the next one: from an empty counter, loops(500) (500 charges)
// yields once per 100 units and leaves 5*100-500 = 0 of the last refill.
func TestFuelAcrossYields(t *testing.T) {
	code, _ := instrument(t, wat2wasm(t, "control"))
	m, c := run(t, code)
	g := m.ExportedGlobal(GlobalExport).(api.MutableGlobal)
	g.Set(0)
	if _, err := m.ExportedFunction("loops").Call(context.Background(), 500); err != nil {
		t.Fatal(err)
	}
	if c.yields != 5 || g.Get() != 0 {
		t.Fatalf("%d yields, %d units left; want 5 yields, 0 left", c.yields, g.Get())
	}
}

func TestDepthLimit(t *testing.T) {
	code, _ := instrument(t, wat2wasm(t, "control"))
	m, c := run(t, code)
	m.ExportedGlobal(DepthExport).(api.MutableGlobal).Set(10)
	if _, err := m.ExportedFunction("fact").Call(context.Background(), 9); err != nil {
		t.Fatalf("9 levels with 10 allowed: %v", err)
	}
	if _, err := m.ExportedFunction("fact").Call(context.Background(), 10); err == nil || !strings.Contains(err.Error(), "too deep") {
		t.Fatalf("10 levels with 10 allowed: %v", err)
	}
	if c.deep != 1 {
		t.Fatalf("depth import called %d times", c.deep)
	}
}

func TestInstrumentRefuses(t *testing.T) {
	tests := []struct {
		name string
		mod  func() *wasm.Module
		want string
	}{
		{name: "reserved import", want: `module name "wasmhost" is reserved`, mod: func() *wasm.Module {
			return &wasm.Module{TypeSection: []*wasm.FunctionType{{}}, ImportSection: []*wasm.Import{{Module: Module, Name: "x"}}}
		}},
		{name: "reserved export", want: `already exports "wasmhost.fuel"`, mod: func() *wasm.Module {
			return &wasm.Module{ExportSection: []*wasm.Export{{Name: GlobalExport, Type: wasm.ExternTypeGlobal}}}
		}},
		{name: "relaxed SIMD", want: "opcode 0xfd at body offset 0: unsupported 0xfd sub-opcode 0x100", mod: func() *wasm.Module {
			return body([]byte{0xfd, 0x80, 0x02})
		}},
		{name: "truncated v128.const", want: "opcode 0xfd at body offset 0: truncated immediate", mod: func() *wasm.Module {
			return body([]byte{0xfd, 0x0c, 1, 2, 3})
		}},
		{name: "atomics", want: "opcode 0xfe at body offset 0: unsupported opcode", mod: func() *wasm.Module {
			return body([]byte{0xfe, 0x00})
		}},
		{name: "truncated immediate", want: "opcode 0x41 at body offset 0: truncated immediate", mod: func() *wasm.Module {
			return body([]byte{0x41, 0x80})
		}},
		{name: "no final end", want: "function body has no final end", mod: func() *wasm.Module {
			return body([]byte{0x01})
		}},
		{name: "code after end", want: "code after the function's final end", mod: func() *wasm.Module {
			return body([]byte{0x0b, 0x01})
		}},
		{name: "bad br_table count", want: "truncated immediate", mod: func() *wasm.Module {
			return body([]byte{0x0e, 0xff, 0xff, 0xff, 0xff, 0x0f})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Instrument(tt.mod())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func body(code []byte) *wasm.Module {
	return &wasm.Module{
		TypeSection:     []*wasm.FunctionType{{}},
		FunctionSection: []wasm.Index{0},
		CodeSection:     []*wasm.Code{{Body: code}},
	}
}

// FuzzInstrument checks that merging the data segments and instrumenting
// any module wazero accepts gives a module wazero accepts, and that merging
// keeps the initial memory image.
func FuzzInstrument(f *testing.F) {
	f.Add(wat2wasm(f, "control"))
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer r.Close(ctx)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := binary.DecodeModule(b, wasm.CoreFeaturesV2)
		if err != nil {
			return
		}
		cm, err := r.CompileModule(ctx, b)
		if err != nil {
			return
		}
		cm.Close(ctx)
		if m.MemorySection != nil && m.MemorySection.Min <= 16 {
			before := image(m)
			MergeData(m)
			if !bytes.Equal(before, image(m)) {
				t.Fatal("MergeData changed the initial memory")
			}
		}
		if _, err := Instrument(m); err != nil {
			return // refusing is allowed: SIMD and friends
		}
		cm, err = r.CompileModule(ctx, binary.EncodeModule(m))
		if err != nil {
			t.Fatalf("a valid module became invalid after instrumentation: %v", err)
		}
		cm.Close(ctx)
	})
}

// TestMergeData checks the merged data section writes the same initial
// memory, including segments that overwrite earlier ones.
func TestMergeData(t *testing.T) {
	seg := func(off int32, b string) *wasm.DataSegment {
		return &wasm.DataSegment{OffsetExpression: &wasm.ConstantExpression{Opcode: wasm.OpcodeI32Const, Data: leb128.EncodeInt32(off)}, Init: []byte(b)}
	}
	tests := []struct {
		name string
		mod  *wasm.Module
		want int // segments after merging
	}{
		{name: "adjacent and overlapping", want: 1, mod: &wasm.Module{
			MemorySection: &wasm.Memory{Min: 1},
			DataSection:   []*wasm.DataSegment{seg(100, "hello"), seg(105, " world"), seg(102, "LL"), seg(4000, "far")},
		}},
		{name: "gap too wide", want: 2, mod: &wasm.Module{
			MemorySection: &wasm.Memory{Min: 1},
			DataSection:   []*wasm.DataSegment{seg(0, "a"), seg(MaxDataGap+2, "b")},
		}},
		{name: "out of bounds is left to fail", want: 2, mod: &wasm.Module{
			MemorySection: &wasm.Memory{Min: 1},
			DataSection:   []*wasm.DataSegment{seg(0, "a"), seg(65535, "bc")},
		}},
		{name: "passive segments are left alone", want: 2, mod: &wasm.Module{
			MemorySection: &wasm.Memory{Min: 1},
			DataSection:   []*wasm.DataSegment{seg(0, "a"), {Init: []byte("p")}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := image(tt.mod)
			if got := MergeData(tt.mod); got != tt.want || len(tt.mod.DataSection) != tt.want {
				t.Fatalf("%d segments, want %d", got, tt.want)
			}
			if after := image(tt.mod); !bytes.Equal(before, after) {
				t.Fatal("the merged segments write a different initial memory")
			}
		})
	}
}

// image applies the active, in-bounds data segments to a zeroed memory.
func image(m *wasm.Module) []byte {
	mem := make([]byte, 65536*int(m.MemorySection.Min))
	for _, s := range m.DataSection {
		if s.OffsetExpression == nil {
			continue
		}
		off, _, _ := leb128.DecodeInt32(bytes.NewReader(s.OffsetExpression.Data))
		if int(off)+len(s.Init) <= len(mem) {
			copy(mem[off:], s.Init)
		}
	}
	return mem
}

// TestInstrumentSIMD instruments fixed-width SIMD code of every immediate
// shape (v128.const, i8x16.shuffle, memargs, lane indexes, load/store lane)
// and checks it computes as before and is charged per loop turn.
func TestInstrumentSIMD(t *testing.T) {
	code, st := instrument(t, wat2wasm(t, "simd"))
	if st.Leaves != 1 || st.LoopHeaders != 1 {
		t.Fatalf("stats %+v, want 1 leaf with 1 loop header", st)
	}
	m, _ := run(t, code)
	g := m.ExportedGlobal(GlobalExport).(api.MutableGlobal)
	g.Set(1_000_000)
	got, err := m.ExportedFunction("simd").Call(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	// Lane 0 adds the shuffled lane 15 (16) three times; lane 15 adds the
	// shuffled lane 0 (1) three times.
	if got[0] != 3*16+3*1 {
		t.Fatalf("simd(3) = %d, want %d", got[0], 3*16+3*1)
	}
	if used := 1_000_000 - g.Get(); used != 3 {
		t.Fatalf("simd(3) used %d units, want 3 loop turns", used)
	}
}
