package fuel

import (
	"errors"
	"fmt"

	"github.com/tetratelabs/wabin/leb128"
	"github.com/tetratelabs/wabin/wasm"
)

// Names of what Instrument adds to a module. Artifacts that already use the
// module name Module or the export GlobalExport must be refused before
// instrumenting.
const (
	Module       = "wasmhost"
	YieldName    = "yield"
	GrowName     = "grow"
	DepthName    = "depth"
	GlobalExport = "wasmhost.fuel"
	DepthExport  = "wasmhost.depth"
)

// Imports is how many function imports Instrument adds.
const Imports = 3

// InitialDepth is the depth global's initial value: the calls a module's
// start function may nest before the host sets the real budget.
const InitialDepth = 1 << 16

// Stats describes what Instrument inserted.
type Stats struct {
	Functions   int // function entries charged
	Leaves      int // functions without calls: entry uncharged, loop headers charged
	LoopHeaders int // loop headers charged
	Grows       int // memory.grow instructions redirected
}

// Instrument rewrites m in place as described in the package documentation.
// On error m is left partially rewritten and must be discarded.
func Instrument(m *wasm.Module) (Stats, error) {
	var st Stats
	var funcImports uint32
	var globalImports uint32
	for _, imp := range m.ImportSection {
		switch imp.Type {
		case wasm.ExternTypeFunc:
			funcImports++
		case wasm.ExternTypeGlobal:
			globalImports++
		}
		if imp.Module == Module {
			return st, fmt.Errorf("fuel: module already imports %q %q; the module name %q is reserved", imp.Module, imp.Name, Module)
		}
	}
	for _, e := range m.ExportSection {
		if e.Name == GlobalExport || e.Name == DepthExport {
			return st, fmt.Errorf("fuel: module already exports %q; the name is reserved", e.Name)
		}
	}
	if len(m.FunctionSection) != len(m.CodeSection) {
		return st, fmt.Errorf("fuel: %d functions declared but %d bodies present", len(m.FunctionSection), len(m.CodeSection))
	}
	yieldType := typeIndex(m, nil, nil)
	growType := typeIndex(m, []wasm.ValueType{wasm.ValueTypeI32}, []wasm.ValueType{wasm.ValueTypeI32})
	// Appending the imports after every existing import gives them function
	// indices funcImports and funcImports+1 and shifts the defined functions.
	m.ImportSection = append(m.ImportSection,
		&wasm.Import{Type: wasm.ExternTypeFunc, Module: Module, Name: YieldName, DescFunc: yieldType},
		&wasm.Import{Type: wasm.ExternTypeFunc, Module: Module, Name: GrowName, DescFunc: growType},
		&wasm.Import{Type: wasm.ExternTypeFunc, Module: Module, Name: DepthName, DescFunc: yieldType},
	)
	yieldIdx, growIdx, depthIdx := funcImports, funcImports+1, funcImports+2
	remap := func(i uint32) uint32 {
		if i >= funcImports {
			return i + Imports
		}
		return i
	}
	global := globalImports + uint32(len(m.GlobalSection))
	depth := global + 1
	m.GlobalSection = append(m.GlobalSection,
		&wasm.Global{
			Type: &wasm.GlobalType{ValType: wasm.ValueTypeI64, Mutable: true},
			Init: &wasm.ConstantExpression{Opcode: wasm.OpcodeI64Const, Data: leb128.EncodeInt64(0)},
		},
		&wasm.Global{
			Type: &wasm.GlobalType{ValType: wasm.ValueTypeI32, Mutable: true},
			Init: &wasm.ConstantExpression{Opcode: wasm.OpcodeI32Const, Data: leb128.EncodeInt32(InitialDepth)},
		})

	r := rewriter{
		remap:  remap,
		charge: chargeCode(global, yieldIdx),
		enter:  enterCode(depth, depthIdx),
		leave:  leaveCode(depth),
		grow:   growIdx,
	}
	for i, c := range m.CodeSection {
		ti := m.FunctionSection[i]
		if ti >= uint32(len(m.TypeSection)) {
			return st, fmt.Errorf("fuel: function %d has type %d, which does not exist", funcImports+uint32(i), ti)
		}
		results := m.TypeSection[ti].Results
		var bt []byte
		switch len(results) {
		case 0:
			bt = []byte{0x40}
		case 1:
			bt = []byte{results[0]}
		default:
			bt = leb128.EncodeInt64(int64(typeIndex(m, nil, results)))
		}
		body, err := r.body(c.Body, bt, &st)
		if err != nil {
			return st, fmt.Errorf("fuel: function %d (code entry %d): %w", funcImports+uint32(i), i, err)
		}
		c.Body = body
	}

	for _, e := range m.ExportSection {
		if e.Type == wasm.ExternTypeFunc {
			e.Index = remap(e.Index)
		}
	}
	m.ExportSection = append(m.ExportSection,
		&wasm.Export{Type: wasm.ExternTypeGlobal, Name: GlobalExport, Index: global},
		&wasm.Export{Type: wasm.ExternTypeGlobal, Name: DepthExport, Index: depth})
	if m.StartSection != nil {
		s := remap(*m.StartSection)
		m.StartSection = &s
	}
	for _, seg := range m.ElementSection {
		for j, idx := range seg.Init {
			if idx != nil {
				v := remap(*idx)
				seg.Init[j] = &v
			}
		}
	}
	for _, g := range m.GlobalSection {
		if g.Init != nil && g.Init.Opcode == wasm.OpcodeRefFunc {
			idx, n, err := readU32(g.Init.Data, 0)
			if err != nil || n != len(g.Init.Data) {
				return st, errors.New("fuel: malformed ref.func global initializer")
			}
			g.Init.Data = leb128.EncodeUint32(remap(idx))
		}
	}
	if ns := m.NameSection; ns != nil {
		for _, a := range ns.FunctionNames {
			a.Index = remap(a.Index)
		}
		for _, a := range ns.LocalNames {
			a.Index = remap(a.Index)
		}
	}
	return st, nil
}

// typeIndex returns the index of an existing type equal to params -> results,
// or appends one.
func typeIndex(m *wasm.Module, params, results []wasm.ValueType) uint32 {
	for i, t := range m.TypeSection {
		if t.EqualsSignature(params, results) {
			return uint32(i)
		}
	}
	m.TypeSection = append(m.TypeSection, &wasm.FunctionType{Params: params, Results: results})
	return uint32(len(m.TypeSection) - 1)
}

// chargeCode is the sequence inserted at function entries and loop headers:
//
//	global.set F (global.get F - 1)
//	if global.get F < 0 { yield() }
//
// Decrementing first leaves the new value in a register for the test (wazero
// reuses a global's value within straight-line code), so a charge is one
// load, a subtract, one store and a branch on the sign; testing for zero
// before the decrement needed a second load after the branch. A counter
// that starts at n therefore allows n charges before the one that calls
// yield; the host must set the counter to the refill minus one (the unit
// that charge spends) before returning. Counters are at most 2^63-1.
func chargeCode(global, yield uint32) []byte {
	g := leb128.EncodeUint32(global)
	var b []byte
	b = append(b, wasm.OpcodeGlobalGet)
	b = append(b, g...)
	b = append(b, wasm.OpcodeI64Const, 1, wasm.OpcodeI64Sub, wasm.OpcodeGlobalSet)
	b = append(b, g...)
	b = append(b, wasm.OpcodeGlobalGet)
	b = append(b, g...)
	b = append(b, wasm.OpcodeI64Const, 0, wasm.OpcodeI64LtS, wasm.OpcodeIf, 0x40, wasm.OpcodeCall)
	b = append(b, leb128.EncodeUint32(yield)...)
	b = append(b, wasm.OpcodeEnd)
	return b
}

// enterCode spends one level of the remaining call depth and calls the
// depth import when none is left:
//
//	global.set D (global.get D - 1)
//	if global.get D == 0 { depth() }
func enterCode(depth, depthFn uint32) []byte {
	d := leb128.EncodeUint32(depth)
	var b []byte
	b = append(b, wasm.OpcodeGlobalGet)
	b = append(b, d...)
	b = append(b, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Sub, wasm.OpcodeGlobalSet)
	b = append(b, d...)
	b = append(b, wasm.OpcodeGlobalGet)
	b = append(b, d...)
	b = append(b, wasm.OpcodeI32Eqz, wasm.OpcodeIf, 0x40, wasm.OpcodeCall)
	b = append(b, leb128.EncodeUint32(depthFn)...)
	b = append(b, wasm.OpcodeEnd)
	return b
}

// leaveCode gives the level back: global.set D (global.get D + 1).
func leaveCode(depth uint32) []byte {
	d := leb128.EncodeUint32(depth)
	var b []byte
	b = append(b, wasm.OpcodeGlobalGet)
	b = append(b, d...)
	b = append(b, wasm.OpcodeI32Const, 1, wasm.OpcodeI32Add, wasm.OpcodeGlobalSet)
	b = append(b, d...)
	return b
}
