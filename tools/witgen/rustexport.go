package main

import (
	"fmt"
	"strings"

	"go.bytecodealliance.org/wit"
)

// exportedResource is a resource of an exported interface with its
// constructor and methods.
type exportedResource struct {
	td      *wit.TypeDef
	ctor    *wit.Function
	methods []*wit.Function
}

// resourceTrait is the name of the trait a plugin implements for an
// exported resource: "GuestDecoder".
func resourceTrait(td *wit.TypeDef) string { return "Guest" + rustTypeName(*td.Name) }

// genExports writes the Guest trait of the current (exported) interface,
// a trait per exported resource, the generic export wrappers and the
// export macro.
func (g *rustGen) genExports() {
	in := g.in
	var resources []*exportedResource
	byRes := map[*wit.TypeDef]*exportedResource{}
	resOf := func(td *wit.TypeDef) *exportedResource {
		r := byRes[td]
		if r == nil {
			r = &exportedResource{td: td}
			byRes[td] = r
			resources = append(resources, r)
		}
		return r
	}
	for _, td := range in.types {
		if _, ok := td.Kind.(*wit.Resource); ok {
			resOf(td)
		}
	}
	var free []*wit.Function
	for _, f := range in.funcs {
		switch kind, res := classify(f); kind {
		case kindFree:
			free = append(free, f)
		case kindConstructor:
			resOf(res).ctor = f
		case kindMethod:
			r := resOf(res)
			r.methods = append(r.methods, f)
		default:
			g.fail("%s.%s: static resource functions are not supported", in.name, f.Name)
		}
	}
	macro := "export_" + rustSnake(in.name)
	g.p("/// Guest is what a plugin implements to export `%s`; `crate::%s!(Type)`\n/// then defines the wasm exports calling it.\npub trait Guest {\n", in.qualified, macro)
	for _, r := range resources {
		g.p("/// The plugin's implementation of the resource `%s`.\ntype %s: %s;\n", *r.td.Name, rustTypeName(*r.td.Name), resourceTrait(r.td))
	}
	for _, f := range free {
		g.docs("///", f.Docs.Contents)
		g.p("fn %s(%s)%s;\n", rustSnake(f.Name), g.ownedParams(f.Params), g.resultArrow(f))
	}
	g.p("}\n\n")
	for _, r := range resources {
		g.docs("///", r.td.Docs.Contents)
		g.p("///\n/// The host owns the handle; it calls the methods on the instance that\n/// created the value and drops the value when the handle is dropped.\n")
		g.p("pub trait %s: Sized + 'static {\n", resourceTrait(r.td))
		if r.ctor != nil {
			g.docs("///", r.ctor.Docs.Contents)
			g.p("fn new(%s) -> Self;\n", g.ownedParams(r.ctor.Params))
		}
		for _, f := range r.methods {
			g.docs("///", f.Docs.Contents)
			ps := g.ownedParams(f.Params[1:])
			if ps != "" {
				ps = ", " + ps
			}
			g.p("fn %s(&mut self%s)%s;\n", rustSnake(f.BaseName()), ps, g.resultArrow(f))
		}
		g.p("}\n\n")
	}
	var shims strings.Builder
	for _, f := range free {
		g.genExport(f, nil, &shims)
	}
	for _, r := range resources {
		if r.ctor != nil {
			g.genExport(r.ctor, r, &shims)
		}
		for _, f := range r.methods {
			g.genExport(f, r, &shims)
		}
		n := rustSnake(*r.td.Name)
		name := "__export_" + n + "_drop"
		g.p("#[doc(hidden)]\npub unsafe fn %s<T: Guest>(rep: i32) {\ndrop(Box::from_raw(rep as u32 as usize as *mut T::%s));\n}\n\n", name, rustTypeName(*r.td.Name))
		local := "__smith_" + rustSnake(in.name) + "_" + n + "_drop"
		fmt.Fprintf(&shims, "#[export_name = %q]\nunsafe extern \"C\" fn %s(rep: i32) {\n$crate::smith_plugin::%s::%s::<$t>(rep)\n}\n",
			in.qualified+"#[dtor]"+*r.td.Name, local, rustSnake(in.name), name)
	}
	g.p("/// %s defines the wasm exports of `%s` for a type\n/// implementing [`%s::Guest`](crate::smith_plugin::%s::Guest).\n",
		macro, in.qualified, rustSnake(in.name), rustSnake(in.name))
	g.p("#[macro_export]\nmacro_rules! %s {\n($t:ty) => {\n%s};\n}\n", macro, shims.String())
}

// rustLocals are the names generated function bodies use for locals.
var rustLocals = map[string]bool{
	"keep": true, "f": true, "r": true, "ret": true, "p": true, "args": true, "import": true, "obj": true,
	"resource_new": true, "rt": true,
}

// rustParam is the Rust name of a WIT parameter, with a trailing
// underscore when it would collide with a generated local.
func rustParam(kebab string) string {
	n := rustSnake(kebab)
	if rustLocals[n] {
		n += "_"
	}
	return n
}

// ownedParams renders parameters owned and by value.
func (g *rustGen) ownedParams(params []wit.Param) string {
	var ps []string
	for _, p := range params {
		ps = append(ps, rustParam(p.Name)+": "+g.rustType(p.Type))
	}
	return strings.Join(ps, ", ")
}

func (g *rustGen) resultArrow(f *wit.Function) string {
	if rt := resultType(f); rt != nil {
		return " -> " + g.rustType(rt)
	}
	return ""
}

// genExport writes the generic wrapper of one exported function (r is its
// resource, if any) and appends its export shims to shims.
func (g *rustGen) genExport(f *wit.Function, r *exportedResource, shims *strings.Builder) {
	in := g.in
	kind, _ := classify(f)
	cp, cr := coreSignature(f, true)
	name := "__export_" + rustSnake(f.Name)
	local := "__smith_" + rustSnake(in.name) + "_" + rustSnake(f.Name)
	var resName string
	if r != nil {
		resName = rustTypeName(*r.td.Name)
		suffix := rustSnake(*r.td.Name) + "_new"
		if kind == kindMethod {
			suffix = rustSnake(*r.td.Name) + "_" + rustSnake(f.BaseName())
		}
		name = "__export_" + suffix
		local = "__smith_" + rustSnake(in.name) + "_" + suffix
	}
	g.p("#[doc(hidden)]\npub unsafe fn %s<T: Guest>(%s)%s {\n", name, coreParams(cp), coreResult(cr))
	g.p("rt::lifting(%q);\n", in.name+"."+f.Name)
	pt := paramTypes(f)
	start := 0
	if kind == kindMethod {
		start = 1
		if b, ok := kindOf(pt[0]).(*wit.Borrow); !ok || b.Type.Root() != r.td {
			g.fail("%s.%s: a method's first parameter must borrow its resource", in.name, f.Name)
		}
	}
	for i := start; i < len(pt); i++ {
		if _, ok := kindOf(pt[i]).(*wit.Borrow); ok {
			g.fail("%s.%s: borrowed handles are supported only as a method's receiver", in.name, f.Name)
		}
	}
	var args []string
	nflat := flatCount(pt)
	self := ""
	if nflat > wit.MaxFlatParams {
		g.p("let args = p0 as u32 as usize;\n")
		offs := fieldOffsets(pt)
		if kind == kindMethod {
			self = fmt.Sprintf("rt::ld::<u32>(%s)", plus("args", offs[0]))
		}
		for i := start; i < len(pt); i++ {
			g.p("let a%d: %s = rt::Canon::load(%s);\n", i, g.rustType(pt[i]), plus("args", offs[i]))
			args = append(args, fmt.Sprintf("a%d", i))
		}
		size, align := tupleLayout(pt)
		g.p("rt::free(args, %d, %d);\n", size, align)
	} else if nflat > 0 {
		bits := make([]string, nflat)
		for i, t := range cp {
			bits[i] = toBits(t, fmt.Sprintf("p%d", i))
		}
		if kind == kindMethod {
			self = "p0 as u32"
		}
		if nflat > 1 || kind != kindMethod {
			g.p("let f: [u64; %d] = [%s];\n", nflat, strings.Join(bits, ", "))
		}
		idx := 0
		for i, t := range pt {
			if i >= start {
				g.p("let a%d: %s = rt::Canon::lift(&f[%d..]);\n", i, g.rustType(t), idx)
				args = append(args, fmt.Sprintf("a%d", i))
			}
			idx += len(t.Flat())
		}
	}
	call := "T::" + rustSnake(f.Name) + "(" + strings.Join(args, ", ") + ")"
	switch kind {
	case kindConstructor:
		call = "<T::" + resName + " as " + resourceTrait(r.td) + ">::new(" + strings.Join(args, ", ") + ")"
	case kindMethod:
		g.p("let obj = &mut *(%s as usize as *mut T::%s);\n", self, resName)
		call = "obj." + rustSnake(f.BaseName()) + "(" + strings.Join(args, ", ") + ")"
	}
	exportName := in.qualified + "#" + f.Name
	fmt.Fprintf(shims, "#[export_name = %q]\nunsafe extern \"C\" fn %s(%s)%s {\n$crate::smith_plugin::%s::%s::<$t>(%s)\n}\n",
		exportName, local, coreParams(cp), coreResult(cr), rustSnake(in.name), name, coreArgs(len(cp)))
	rt := resultType(f)
	switch {
	case kind == kindConstructor:
		g.externDecl("[export]"+in.qualified, "[resource-new]"+*r.td.Name, "resource_new", []coreType{coreI32}, []coreType{coreI32})
		g.p("resource_new(Box::into_raw(Box::new(%s)) as usize as i32)\n", call)
	case rt == nil:
		g.p("%s;\n", call)
	case len(flatTypes(rt)) <= wit.MaxFlatResults:
		g.p("let mut keep = rt::Keep::new();\nlet mut r = [0u64; 1];\nrt::Canon::lower(&%s, &mut r, &mut keep);\n%s\n", call, fromBits(cr[0], "r[0]"))
	default:
		g.p("rt::return_value(%s) as i32\n", call)
		fmt.Fprintf(shims, "#[export_name = %q]\nunsafe extern \"C\" fn %s_post(_: i32) {\n$crate::smith_plugin::rt::post_return()\n}\n",
			"cabi_post_"+exportName, local)
	}
	g.p("}\n\n")
}
