package main

import (
	"fmt"
	"path"
	"strings"

	"go.bytecodealliance.org/wit"
)

// guestConfig says where guest bindings go.
type guestConfig struct {
	dir     string // output directory; one subdirectory per interface
	prefix  string // import path of dir
	runtime string // import path of the cabi runtime package
}

// reserved are names generated code uses for locals.
var reserved = map[string]bool{
	"f": true, "ret": true, "err": true, "mark": true, "c": true, "ctx": true, "b": true, "v": true,
	"r": true, "h": true, "fault": true, "self": true, "args": true, "rep": true, "obj": true, "g": true,
	"type": true, "func": true, "range": true, "map": true, "chan": true, "string": true, "len": true,
	"default": true, "case": true, "select": true, "go": true, "var": true, "package": true, "import": true,
	"interface": true, "struct": true, "return": true, "switch": true, "for": true, "if": true, "else": true,
	"break": true, "continue": true, "const": true, "defer": true, "fallthrough": true, "goto": true,
}

// paramName is a Go parameter name for a WIT parameter.
func paramName(wn string) string {
	n := goName(wn)
	n = strings.ToLower(n[:1]) + n[1:]
	if reserved[n] || strings.HasPrefix(n, "t") && len(n) > 1 && n[1] >= '0' && n[1] <= '9' {
		return "arg" + goName(wn)
	}
	return n
}

// funcGoName is the Go name of a function: "read-file" is ReadFile, a
// constructor of counter is NewCounter, a method add of counter is Add.
func funcGoName(f *wit.Function) string {
	kind, res := classify(f)
	switch kind {
	case kindConstructor:
		return "New" + goName(*res.Name)
	case kindMethod, kindStatic:
		_, after, _ := strings.Cut(f.Name, ".")
		if kind == kindStatic {
			return goName(*res.Name) + goName(after)
		}
		return goName(after)
	}
	return goName(f.Name)
}

// flatGo is the Go type carrying a core value in a wasmimport/wasmexport.
func flatGo(t coreType) string {
	switch t {
	case coreI64:
		return "uint64"
	case coreF32:
		return "float32"
	case coreF64:
		return "float64"
	}
	return "uint32"
}

// toFlat converts a typed core value expression to its uint64 encoding.
func toFlat(t coreType, expr string) string {
	switch t {
	case coreI64:
		return expr
	case coreF32:
		return "uint64(math.Float32bits(" + expr + "))"
	case coreF64:
		return "math.Float64bits(" + expr + ")"
	}
	return "uint64(" + expr + ")"
}

// fromFlat converts a uint64 encoding to a typed core value expression.
func fromFlat(t coreType, expr string) string {
	switch t {
	case coreI64:
		return expr
	case coreF32:
		return "math.Float32frombits(uint32(" + expr + "))"
	case coreF64:
		return "math.Float64frombits(" + expr + ")"
	}
	return "uint32(" + expr + ")"
}

// resultShape describes how a function's result appears in Go.
type resultShape struct {
	t       wit.Type    // the WIT result, nil if none
	res     *wit.Result // set when t is a result<...>
	goTypes string      // "", "T", "(T, error)", "error"
}

func shapeOf(c *codec, f *wit.Function) resultShape {
	t := resultType(f)
	if t == nil {
		return resultShape{}
	}
	if r, ok := kindOf(t).(*wit.Result); ok {
		s := resultShape{t: t, res: r}
		if r.OK == nil {
			s.goTypes = "error"
		} else {
			s.goTypes = "(" + c.goType(r.OK) + ", error)"
		}
		return s
	}
	return resultShape{t: t, goTypes: c.goType(t)}
}

// genGuest writes the guest bindings: one package per interface.
func genGuest(m *model, cfg guestConfig, errTypes map[*wit.TypeDef]bool, source string, out output) error {
	for _, in := range m.ifaces {
		if err := genGuestIface(m, in, cfg, errTypes, source, out); err != nil {
			return err
		}
	}
	return nil
}

func genGuestIface(m *model, in *iface, cfg guestConfig, errTypes map[*wit.TypeDef]bool, source string, out output) error {
	pkg := packageName(in.name)
	imports := map[string]bool{}
	typeName := func(td *wit.TypeDef) string {
		o := m.owner(td)
		if o == nil || o == in {
			return goName(*td.Name)
		}
		imports[path.Join(cfg.prefix, packageName(o.name))] = true
		return packageName(o.name) + "." + goName(*td.Name)
	}
	c := newCodec(guestSide, typeName)
	c.handle = func(r *wit.TypeDef) handleCode {
		o := m.owner(r)
		if o != nil && o.exported {
			return handleCode{
				goType: typeName(r),
				lift: func(h, dst string, own bool) string {
					c.fail("exported resource %s may appear only as a constructor result or method receiver", *r.Name)
					return ""
				},
				lower: func(v string, own bool) string {
					c.fail("exported resource %s may appear only as a constructor result or method receiver", *r.Name)
					return ""
				},
			}
		}
		gt := typeName(r)
		q := ""
		if i := strings.LastIndex(gt, "."); i >= 0 {
			q = gt[:i+1]
		}
		return handleCode{
			goType: gt,
			lift: func(h, dst string, own bool) string {
				return dst + " = " + q + goName(*r.Name) + "FromHandle(" + h + ")\n"
			},
			lower: func(v string, own bool) string { return v + ".Handle()" },
		}
	}

	types := &goFile{pkg: pkg, imports: imports}
	types.pkgDoc = "// Package " + pkg + " is the Go guest binding of the WIT interface\n// " + in.qualified + ".\n//\n" +
		strings.TrimRight(fieldComment(in.wi.Docs.Contents), "\n") + "\n"
	if in.capability != "" {
		types.pkgDoc += "//\n// Importing it requires the capability " + quote(in.capability) + ".\n"
	}
	abi := &goFile{pkg: pkg, header: "//go:build wasip1", imports: map[string]bool{cfg.runtime: true}}
	for _, td := range in.types {
		if _, isRes := td.Kind.(*wit.Resource); isRes {
			continue
		}
		declareType(&types.body, c, in, td, errTypes[td])
	}
	if in.exported {
		genGuestExports(c, in, types, abi)
	} else {
		genGuestImports(c, in, types, abi)
	}
	helpers, err := c.drain()
	if err != nil {
		return errorf("interface %s: %w", in.name, err)
	}
	abi.body.WriteString(helpers)
	for k := range imports {
		abi.imports[k] = true
	}
	dir := path.Join(cfg.dir, pkg)
	if err := out.add(path.Join(dir, pkg+".go"), types, source); err != nil {
		return err
	}
	if abi.body.Len() == 0 {
		return nil
	}
	return out.add(path.Join(dir, pkg+"_wasip1.go"), abi, source)
}

// genGuestImports writes Go functions and resource types calling the host.
func genGuestImports(c *codec, in *iface, types, abi *goFile) {
	for _, td := range in.types {
		if _, isRes := td.Kind.(*wit.Resource); !isRes {
			continue
		}
		n := goName(*td.Name)
		types.body.WriteString(comment(n, "is a handle to the host resource \""+*td.Name+"\" ("+in.qualified+"). Call Drop when done with an owned handle.", td.Docs.Contents))
		types.body.WriteString("type " + n + " struct{ handle uint32 }\n\n")
		types.body.WriteString("// " + n + "FromHandle wraps a handle received from the host.\nfunc " + n + "FromHandle(h uint32) " + n + " { return " + n + "{handle: h} }\n\n")
		types.body.WriteString("// Handle returns the handle's number in the instance's table.\nfunc (h " + n + ") Handle() uint32 { return h.handle }\n\n")
		fmt.Fprintf(&abi.body, "//go:wasmimport %s [resource-drop]%s\nfunc wasmimportDrop%s(handle uint32)\n\n", in.qualified, *td.Name, n)
		fmt.Fprintf(&abi.body, "// Drop releases the handle; the host drops the resource when no handle remains.\nfunc (h %s) Drop() { wasmimportDrop%s(h.handle) }\n\n", n, n)
	}
	for _, f := range in.funcs {
		genGuestImport(c, in, f, abi)
	}
}

func genGuestImport(c *codec, in *iface, f *wit.Function, abi *goFile) {
	kind, res := classify(f)
	name := funcGoName(f)
	shim := "wasmimport" + name
	if kind == kindMethod || kind == kindStatic {
		shim = "wasmimport" + goName(*res.Name) + name
	}
	cp, cr := coreSignature(f, false)
	// The wasmimport declaration.
	var ps []string
	for i, t := range cp {
		ps = append(ps, fmt.Sprintf("p%d %s", i, flatGo(t)))
	}
	rs := ""
	if len(cr) == 1 {
		rs = " " + flatGo(cr[0])
	}
	fmt.Fprintf(&abi.body, "//go:wasmimport %s %s\nfunc %s(%s)%s\n\n", in.qualified, f.Name, shim, strings.Join(ps, ", "), rs)

	// The Go function.
	shape := shapeOf(c, f)
	params := f.Params
	recv := ""
	if kind == kindMethod {
		recv = "(h " + goName(*res.Name) + ") "
	}
	var gps []string
	for i, p := range params {
		if kind == kindMethod && i == 0 {
			continue
		}
		gps = append(gps, paramName(p.Name)+" "+c.goType(p.Type))
	}
	abi.body.WriteString(funcDoc(name, f.Docs.Contents))
	fmt.Fprintf(&abi.body, "func %s%s(%s) %s {\nmark := cabi.Mark()\ndefer cabi.Release(mark)\n", recv, name, strings.Join(gps, ", "), shape.goTypes)
	pt := paramTypes(f)
	argName := func(i int) string {
		if kind == kindMethod && i == 0 {
			return "h"
		}
		return paramName(params[i].Name)
	}
	var call []string
	nflat := flatCount(pt)
	if nflat > wit.MaxFlatParams {
		size, align := tupleLayout(pt)
		fmt.Fprintf(&abi.body, "args := cabi.Alloc(%d, %d)\n", size, align)
		offs := fieldOffsets(pt)
		for i, t := range pt {
			abi.body.WriteString(c.store(t, fmt.Sprintf("args[%d:]", offs[i]), argName(i), f.Name+"."+params[i].Name))
		}
		call = append(call, "cabi.Addr(args)")
	} else if nflat > 0 {
		fmt.Fprintf(&abi.body, "var f [%d]uint64\n", nflat)
		idx := 0
		for i, t := range pt {
			abi.body.WriteString(c.lower(t, "f", idx, argName(i), f.Name+"."+params[i].Name))
			idx += len(t.Flat())
		}
		for i := 0; i < nflat; i++ {
			call = append(call, fromFlat(cp[i], fmt.Sprintf("f[%d]", i)))
		}
	}
	if shape.t == nil {
		fmt.Fprintf(&abi.body, "%s(%s)\n}\n\n", shim, strings.Join(call, ", "))
		return
	}
	if len(cr) == 1 {
		fmt.Fprintf(&abi.body, "r := [1]uint64{%s}\n", toFlat(cr[0], shim+"("+strings.Join(call, ", ")+")"))
		abi.body.WriteString(guestLiftResult(c, shape, "flat", "r", f.Name))
	} else {
		fmt.Fprintf(&abi.body, "ret := cabi.Alloc(%d, %d)\n", shape.t.Size(), shape.t.Align())
		call = append(call, "cabi.Addr(ret)")
		fmt.Fprintf(&abi.body, "%s(%s)\n", shim, strings.Join(call, ", "))
		abi.body.WriteString(guestLiftResult(c, shape, "memory", "ret", f.Name))
	}
	abi.body.WriteString("}\n\n")
}

// guestLiftResult returns statements that lift a call's result from r and
// return it; from is "flat" or "memory".
func guestLiftResult(c *codec, s resultShape, from, r, fname string) string {
	var b strings.Builder
	if s.res == nil {
		fmt.Fprintf(&b, "var v %s\n", c.goType(s.t))
		if from == "flat" {
			b.WriteString(c.lift(s.t, r, 0, "v", fname))
		} else {
			b.WriteString(c.load(s.t, r, "v", fname))
		}
		b.WriteString("cabi.Unpin()\nreturn v\n")
		return b.String()
	}
	okZero := ""
	if s.res.OK != nil {
		fmt.Fprintf(&b, "var v %s\n", c.goType(s.res.OK))
		okZero = "v, "
	}
	fmt.Fprintf(&b, "var fault %s\n", c.goType(s.res.Err))
	off := payloadOffset([]wit.Type{s.res.OK, s.res.Err})
	disc := r + "[0]"
	if from == "flat" {
		disc = "uint32(" + r + "[0])"
	}
	fmt.Fprintf(&b, "switch %s {\ncase 0:\n", disc)
	if s.res.OK != nil {
		if from == "flat" {
			b.WriteString(c.lift(s.res.OK, r, 1, "v", fname))
		} else {
			b.WriteString(c.load(s.res.OK, fmt.Sprintf("%s[%d:]", r, off), "v", fname))
		}
	}
	b.WriteString("cabi.Unpin()\nreturn " + okZero + "nil\ncase 1:\n")
	if from == "flat" {
		b.WriteString(c.lift(s.res.Err, r, 1, "fault", fname))
	} else {
		b.WriteString(c.load(s.res.Err, fmt.Sprintf("%s[%d:]", r, off), "fault", fname))
	}
	b.WriteString("cabi.Unpin()\nreturn " + okZero + "fault\n}\n")
	fmt.Fprintf(&b, "cabi.BadCase(%q, uint32(%s), 2)\npanic(\"unreachable\")\n", fname, disc)
	return b.String()
}

// genGuestExports writes the interface a plugin implements, Export, and the
// wasmexport shims calling the implementation.
func genGuestExports(c *codec, in *iface, types, abi *goFile) {
	var methods strings.Builder
	resources := map[*wit.TypeDef][]*wit.Function{}
	var resOrder []*wit.TypeDef
	for _, f := range in.funcs {
		kind, res := classify(f)
		shape := shapeOf(c, f)
		var gps []string
		for i, p := range f.Params {
			if kind == kindMethod && i == 0 {
				continue
			}
			gps = append(gps, paramName(p.Name)+" "+c.goType(p.Type))
		}
		switch kind {
		case kindMethod:
			if _, seen := resources[res]; !seen {
				resOrder = append(resOrder, res)
			}
			resources[res] = append(resources[res], f)
		case kindConstructor:
			if _, seen := resources[res]; !seen {
				resources[res] = nil
				resOrder = append(resOrder, res)
			}
			methods.WriteString(funcDoc(funcGoName(f), f.Docs.Contents))
			fmt.Fprintf(&methods, "%s(%s) %s\n", funcGoName(f), strings.Join(gps, ", "), goName(*res.Name))
		case kindStatic:
			c.fail("%s: static functions are not supported", f.Name)
		default:
			methods.WriteString(funcDoc(funcGoName(f), f.Docs.Contents))
			fmt.Fprintf(&methods, "%s(%s) %s\n", funcGoName(f), strings.Join(gps, ", "), shape.goTypes)
		}
	}
	types.body.WriteString("// Exports is what a plugin implements to export " + in.qualified + ".\n// Pass it to Export from an init function.\n")
	types.body.WriteString("type Exports interface {\n" + methods.String() + "}\n\n")
	for _, r := range resOrder {
		n := goName(*r.Name)
		types.body.WriteString(comment(n, "is the plugin's implementation of the resource \""+*r.Name+"\" ("+in.qualified+"). The host calls its methods on the instance that created it.", r.Docs.Contents))
		types.body.WriteString("type " + n + " interface {\n")
		for _, f := range resources[r] {
			shape := shapeOf(c, f)
			var gps []string
			for _, p := range f.Params[1:] {
				gps = append(gps, paramName(p.Name)+" "+c.goType(p.Type))
			}
			types.body.WriteString(funcDoc(funcGoName(f), f.Docs.Contents))
			fmt.Fprintf(&types.body, "%s(%s) %s\n", funcGoName(f), strings.Join(gps, ", "), shape.goTypes)
		}
		types.body.WriteString("}\n\n")
		fmt.Fprintf(&abi.body, "var table%s cabi.Table[%s]\n\n", n, n)
		fmt.Fprintf(&abi.body, "//go:wasmimport [export]%s [resource-new]%s\nfunc wasmimportResourceNew%s(rep uint32) uint32\n\n", in.qualified, *r.Name, n)
		fmt.Fprintf(&abi.body, "//go:wasmexport %s#[dtor]%s\nfunc wasmexportDrop%s(rep uint32) { table%s.Remove(rep) }\n\n", in.qualified, *r.Name, n, n)
	}
	types.body.WriteString("var exports Exports\n\n")
	types.body.WriteString("// Export registers the plugin's implementation of " + in.qualified + ".\n// Call it once, from an init function, before the host calls any export.\nfunc Export(impl Exports) { exports = impl }\n\n")
	for _, f := range in.funcs {
		genGuestExport(c, in, f, abi)
	}
}

func genGuestExport(c *codec, in *iface, f *wit.Function, abi *goFile) {
	kind, res := classify(f)
	if kind == kindStatic {
		return
	}
	name := funcGoName(f)
	shim := "wasmexport" + name
	if kind == kindMethod {
		shim = "wasmexport" + goName(*res.Name) + name
	}
	exportName := in.qualified + "#" + f.Name
	cp, cr := coreSignature(f, true)
	var ps []string
	for i, t := range cp {
		ps = append(ps, fmt.Sprintf("p%d %s", i, flatGo(t)))
	}
	rs := ""
	if len(cr) == 1 {
		rs = " " + flatGo(cr[0])
	}
	fmt.Fprintf(&abi.body, "//go:wasmexport %s\nfunc %s(%s)%s {\n", exportName, shim, strings.Join(ps, ", "), rs)
	abi.body.WriteString("if exports == nil {\npanic(" + quote("wit: "+in.qualified+": the plugin did not call Export") + ")\n}\n")
	pt := paramTypes(f)
	var args []string
	start := 0
	if kind == kindMethod {
		start = 1
		fmt.Fprintf(&abi.body, "obj := table%s.Get(p0)\n", goName(*res.Name))
	}
	for i := start; i < len(pt); i++ {
		a := fmt.Sprintf("a%d", i)
		fmt.Fprintf(&abi.body, "var %s %s\n", a, c.goType(pt[i]))
		args = append(args, a)
	}
	nflat := flatCount(pt)
	if nflat > wit.MaxFlatParams {
		size, _ := tupleLayout(pt)
		fmt.Fprintf(&abi.body, "args := cabi.View(p0, %d)\n", size)
		offs := fieldOffsets(pt)
		for i := start; i < len(pt); i++ {
			abi.body.WriteString(c.load(pt[i], fmt.Sprintf("args[%d:]", offs[i]), fmt.Sprintf("a%d", i), f.Name+"."+f.Params[i].Name))
		}
	} else if nflat > 0 {
		var fs []string
		for i, t := range cp {
			fs = append(fs, toFlat(t, fmt.Sprintf("p%d", i)))
		}
		fmt.Fprintf(&abi.body, "f := [%d]uint64{%s}\n_ = f\n", nflat, strings.Join(fs, ", "))
		idx := 0
		for i, t := range pt {
			if i >= start {
				abi.body.WriteString(c.lift(t, "f", idx, fmt.Sprintf("a%d", i), f.Name+"."+f.Params[i].Name))
			}
			idx += len(t.Flat())
		}
	}
	abi.body.WriteString("cabi.Unpin()\n")
	target := "exports." + name
	if kind == kindMethod {
		target = "obj." + name
	}
	invoke := target + "(" + strings.Join(args, ", ") + ")"
	if kind == kindConstructor {
		n := goName(*res.Name)
		fmt.Fprintf(&abi.body, "return wasmimportResourceNew%s(table%s.Add(%s))\n}\n\n", n, n, invoke)
		return
	}
	shape := shapeOf(c, f)
	if shape.t == nil {
		abi.body.WriteString(invoke + "\n}\n\n")
		return
	}
	switch {
	case shape.res == nil:
		abi.body.WriteString("v := " + invoke + "\n")
	case shape.res.OK == nil:
		abi.body.WriteString("err := " + invoke + "\n")
	default:
		abi.body.WriteString("v, err := " + invoke + "\n")
	}
	if len(flatTypes(shape.t)) <= 1 {
		abi.body.WriteString("var r [1]uint64\n")
		abi.body.WriteString(guestLowerResult(c, shape, "flat", "r", f.Name))
		fmt.Fprintf(&abi.body, "return %s\n}\n\n", fromFlat(cr[0], "r[0]"))
		return
	}
	fmt.Fprintf(&abi.body, "ret := cabi.Alloc(%d, %d)\n", shape.t.Size(), shape.t.Align())
	abi.body.WriteString(guestLowerResult(c, shape, "memory", "ret", f.Name))
	abi.body.WriteString("return cabi.Addr(ret)\n}\n\n")
	fmt.Fprintf(&abi.body, "//go:wasmexport cabi_post_%s\nfunc wasmpost%s(uint32) { cabi.Release(cabi.Marker{}) }\n\n", exportName, strings.TrimPrefix(shim, "wasmexport"))
}

// guestLowerResult returns statements that lower v (and err, for results)
// into r; into is "flat" or "memory".
func guestLowerResult(c *codec, s resultShape, into, r, fname string) string {
	var b strings.Builder
	if s.res == nil {
		if into == "flat" {
			b.WriteString(c.lower(s.t, r, 0, "v", fname))
		} else {
			b.WriteString(c.store(s.t, r, "v", fname))
		}
		return b.String()
	}
	et := c.goType(s.res.Err)
	off := payloadOffset([]wit.Type{s.res.OK, s.res.Err})
	fmt.Fprintf(&b, "if err != nil {\nvar fault %s\nif !errors.As(err, &fault) {\nfault = %s{Case: %sUnknown, Unknown: err.Error()}\n}\n", et, et, et)
	if into == "flat" {
		fmt.Fprintf(&b, "%s[0] = 1\n", r)
		b.WriteString(c.lower(s.res.Err, r, 1, "fault", fname))
	} else {
		fmt.Fprintf(&b, "%s[0] = 1\n", r)
		b.WriteString(c.store(s.res.Err, fmt.Sprintf("%s[%d:]", r, off), "fault", fname))
	}
	b.WriteString("} else {\n")
	if s.res.OK != nil {
		if into == "flat" {
			b.WriteString(c.lower(s.res.OK, r, 1, "v", fname))
		} else {
			b.WriteString(c.store(s.res.OK, fmt.Sprintf("%s[%d:]", r, off), "v", fname))
		}
	}
	b.WriteString("}\n")
	return b.String()
}
