package rustdriver

import (
	"context"
	"testing"

	"github.com/smith-agent/smith/wasmhost"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// WasmGuest is a Rust crate built for wasm as the plugins are, run under
// wazero's optimizing compiler for benchmarks of a guest alone (a decoder
// without the plugin boundary). Its host module only refills the fuel,
// grows the memory and refuses a call-depth overflow, so what is timed is
// the guest's code. The crate exports a function returning the address of
// a buffer of n bytes for the next chunk (see [WasmGuest.Put]). A
// WasmGuest is used by one goroutine; it is closed when the test ends.
type WasmGuest struct {
	mod    api.Module
	fuel   api.MutableGlobal // nil when the module is not instrumented
	stack  []uint64
	chunk  api.Function
	buf    uint32 // the guest's chunk buffer
	bufLen int
}

// BuildWasmGuest builds the crate at root with [BuildWasm], instruments it
// for fuel as tools/pluginbuild does, and instantiates it ([NewWasmGuest]).
func BuildWasmGuest(tb testing.TB, name, root, chunk string) *WasmGuest {
	tb.Helper()
	module, err := wasmhost.Instrument(BuildWasm(tb, root))
	if err != nil {
		tb.Fatal(err)
	}
	return NewWasmGuest(tb, name, module, chunk)
}

// NewWasmGuest instantiates module as name. chunk names its export
// returning the address of an n-byte chunk buffer. A fuel-instrumented
// module gets all the fuel and call depth it may use; a module that is
// not instrumented imports none of the host module and has no fuel.
func NewWasmGuest(tb testing.TB, name string, module []byte, chunk string) *WasmGuest {
	tb.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	tb.Cleanup(func() { rt.Close(ctx) })
	g := &WasmGuest{stack: make([]uint64, 1)}
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	_, err := rt.NewHostModuleBuilder("wasmhost").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) {
		g.fuel.Set(1 << 62)
	}), nil, nil).Export("yield").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(_ context.Context, m api.Module, s []uint64) {
		old, ok := m.Memory().Grow(uint32(s[0]))
		if !ok {
			s[0] = uint64(0xffffffff)
			return
		}
		s[0] = uint64(old)
	}), []api.ValueType{api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).Export("grow").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) {
		panic("rustdriver: the wasm guest " + name + " nested calls beyond the depth budget")
	}), nil, nil).Export("depth").
		Instantiate(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if g.mod, err = rt.InstantiateWithConfig(ctx, module, wazero.NewModuleConfig().WithName(name)); err != nil {
		tb.Fatal(err)
	}
	if fuel, ok := g.mod.ExportedGlobal("wasmhost.fuel").(api.MutableGlobal); ok {
		g.fuel = fuel
		g.fuel.Set(1 << 62)
		g.mod.ExportedGlobal("wasmhost.depth").(api.MutableGlobal).Set(1 << 16)
	}
	g.chunk = g.Func(tb, chunk)
	return g
}

// Func returns the guest's export name; tb fails if there is none.
func (g *WasmGuest) Func(tb testing.TB, name string) api.Function {
	tb.Helper()
	f := g.mod.ExportedFunction(name)
	if f == nil {
		tb.Fatalf("rustdriver: the wasm guest %s exports no function %q", g.mod.Name(), name)
	}
	return f
}

// Call runs f with one argument and returns its result, if any.
func (g *WasmGuest) Call(tb testing.TB, f api.Function, arg uint64) uint64 {
	g.stack[0] = arg
	if err := f.CallWithStack(context.Background(), g.stack); err != nil {
		tb.Fatal(err)
	}
	return g.stack[0]
}

// Put copies c into the guest's chunk buffer, asking the guest for a
// larger one only when c does not fit the one it has, as a host keeping
// the guest's buffer would.
func (g *WasmGuest) Put(tb testing.TB, c []byte) {
	tb.Helper()
	if len(c) > g.bufLen {
		g.buf, g.bufLen = uint32(g.Call(tb, g.chunk, uint64(len(c)))), len(c)
	}
	if !g.mod.Memory().Write(g.buf, c) {
		tb.Fatalf("rustdriver: the chunk buffer of the wasm guest %s at %#x does not hold %d bytes", g.mod.Name(), g.buf, len(c))
	}
}
