package main

import (
	"fmt"
	"strings"

	"go.bytecodealliance.org/wit"
)

// rustCore is the Rust type of a core wasm value.
func rustCore(t coreType) string {
	switch t {
	case coreI64:
		return "i64"
	case coreF32:
		return "f32"
	case coreF64:
		return "f64"
	}
	return "i32"
}

// fromBits converts a u64 flat slot expression to core type t.
func fromBits(t coreType, e string) string {
	switch t {
	case coreI64:
		return e + " as i64"
	case coreF32:
		return "f32::from_bits(" + e + " as u32)"
	case coreF64:
		return "f64::from_bits(" + e + ")"
	}
	return e + " as i32"
}

// toBits converts a core value expression of type t to its u64 flat slot.
func toBits(t coreType, e string) string {
	switch t {
	case coreI64:
		return e + " as u64"
	case coreF32:
		return e + ".to_bits() as u64"
	case coreF64:
		return e + ".to_bits()"
	}
	return e + " as u32 as u64"
}

// coreParams renders core parameters "p0: i32, p1: i64".
func coreParams(ts []coreType) string {
	ps := make([]string, len(ts))
	for i, t := range ts {
		ps[i] = fmt.Sprintf("p%d: %s", i, rustCore(t))
	}
	return strings.Join(ps, ", ")
}

// coreArgs renders "p0, p1" for n parameters.
func coreArgs(n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = fmt.Sprintf("p%d", i)
	}
	return strings.Join(ps, ", ")
}

// coreResult renders " -> i32" for a single core result.
func coreResult(ts []coreType) string {
	if len(ts) == 0 {
		return ""
	}
	return " -> " + rustCore(ts[0])
}

// paramKind says how an imported function takes a parameter.
type paramKind int

const (
	byValue paramKind = iota // scalars and enums
	byStr                    // string as &str
	bySlice                  // list<T> as &[T]
	byRef                    // everything else as &T
)

func paramKindOf(t wit.Type) paramKind {
	td, ok := root(t).(*wit.TypeDef)
	if !ok {
		if _, isString := root(t).(wit.String); isString {
			return byStr
		}
		return byValue
	}
	switch td.Kind.(type) {
	case *wit.List:
		return bySlice
	case *wit.Enum:
		return byValue
	}
	return byRef
}

// importParamType is the Rust type of an imported function's parameter.
func (g *rustGen) importParamType(t wit.Type) string {
	switch paramKindOf(t) {
	case byStr:
		return "&str"
	case bySlice:
		return "&[" + g.rustType(kindOf(t).(*wit.List).Type) + "]"
	case byRef:
		return "&" + g.rustType(t)
	}
	return g.rustType(t)
}

// retWords is how many u64 words hold a return area of t.
func retWords(t wit.Type) uintptr { return (t.Size() + 7) / 8 }

// externDecl writes an extern block importing one core function as
// local, with a native stand-in that panics, so the bindings also compile
// for native unit tests of a plugin's pure code.
func (g *rustGen) externDecl(module, name, local string, params, results []coreType) {
	g.p("#[cfg(target_arch = \"wasm32\")]\n#[link(wasm_import_module = %q)]\nextern \"C\" {\n#[link_name = %q]\nfn %s(%s)%s;\n}\n",
		module, name, local, coreParams(params), coreResult(results))
	anon := make([]string, len(params))
	for i, t := range params {
		anon[i] = "_: " + rustCore(t)
	}
	g.p("#[cfg(not(target_arch = \"wasm32\"))]\nunsafe fn %s(%s)%s {\nunreachable!(%q)\n}\n",
		local, strings.Join(anon, ", "), coreResult(results), "smith_plugin: "+module+" "+name+" is a host import, callable only in wasm32")
}

// genImport writes the Rust function calling an imported WIT function.
func (g *rustGen) genImport(f *wit.Function) {
	in := g.in
	if kind, _ := classify(f); kind != kindFree {
		g.fail("%s.%s: imported resource functions are not supported", in.name, f.Name)
		return
	}
	cp, cr := coreSignature(f, false)
	var ps []string
	for _, p := range f.Params {
		ps = append(ps, rustParam(p.Name)+": "+g.importParamType(p.Type))
	}
	rt := resultType(f)
	ret := ""
	if rt != nil {
		ret = " -> " + g.rustType(rt)
	}
	g.docs("///", f.Docs.Contents)
	g.p("pub fn %s(%s)%s {\n", rustSnake(f.Name), strings.Join(ps, ", "), ret)
	g.externDecl(in.qualified, f.Name, "import", cp, cr)
	g.p("unsafe {\nrt::lifting(%q);\n", in.name+"."+f.Name)
	pt := paramTypes(f)
	nflat := flatCount(pt)
	var args []string
	memory := nflat > wit.MaxFlatParams
	needKeep := memory
	for _, t := range pt {
		if paramKindOf(t) != byStr {
			needKeep = true
		}
	}
	if needKeep {
		g.p("let mut keep = rt::Keep::new();\n")
	}
	switch {
	case memory:
		size, align := tupleLayout(pt)
		g.p("let args = keep.alloc(%d, %d);\n", size, align)
		offs := fieldOffsets(pt)
		for i, t := range pt {
			at := plus("args", offs[i])
			v := rustParam(f.Params[i].Name)
			switch paramKindOf(t) {
			case byStr:
				g.p("rt::store_str(%s, %s);\n", v, at)
			case bySlice:
				g.p("rt::store_slice(%s, %s, &mut keep);\n", v, at)
			case byValue:
				g.p("rt::Canon::store(&%s, %s, &mut keep);\n", v, at)
			default:
				g.p("rt::Canon::store(%s, %s, &mut keep);\n", v, at)
			}
		}
		args = append(args, "args as i32")
	case nflat > 0:
		g.p("let mut f = [0u64; %d];\n", nflat)
		idx := 0
		for i, t := range pt {
			v := rustParam(f.Params[i].Name)
			switch paramKindOf(t) {
			case byStr:
				g.p("rt::lower_str(%s, &mut f[%d..]);\n", v, idx)
			case bySlice:
				g.p("rt::lower_slice(%s, &mut f[%d..], &mut keep);\n", v, idx)
			case byValue:
				g.p("rt::Canon::lower(&%s, &mut f[%d..], &mut keep);\n", v, idx)
			default:
				g.p("rt::Canon::lower(%s, &mut f[%d..], &mut keep);\n", v, idx)
			}
			idx += len(t.Flat())
		}
		for i := 0; i < nflat; i++ {
			args = append(args, fromBits(cp[i], fmt.Sprintf("f[%d]", i)))
		}
	}
	switch {
	case rt == nil:
		g.p("import(%s);\n", strings.Join(args, ", "))
	case len(cr) == 1:
		g.p("let r = import(%s);\n", strings.Join(args, ", "))
		g.p("rt::Canon::lift(&[%s])\n", toBits(cr[0], "r"))
	default:
		g.p("let mut ret = [0u64; %d];\nlet p = ret.as_mut_ptr() as usize;\n", retWords(rt))
		args = append(args, "p as i32")
		g.p("import(%s);\n", strings.Join(args, ", "))
		g.p("rt::Canon::load(p)\n")
	}
	g.p("}\n}\n\n")
}
