package main

import (
	"fmt"
	"strings"

	"go.bytecodealliance.org/wit"
)

// genExports writes Guest, Bind, one method per exported function, and the
// handle types of guest resources.
func (h *hostGen) genExports(f *goFile) {
	b := &f.body
	b.WriteString(`// Guest calls the world's exports on one guest instance. A Guest, like its
// instance, serves one call at a time.
type Guest struct {
	in *wasmhost.Instance
	st *state
}

// states maps each live instance to its resource tables, so that every
// Bind of a pooled instance sees the handles created through earlier ones.
// An entry goes when its instance is garbage collected.
var states sync.Map // weak.Pointer[wasmhost.Instance] -> *state

// Bind returns the exports of in. Binding the same instance again returns
// a Guest sharing its resource handle tables; Bind is safe for concurrent
// use.
func Bind(in *wasmhost.Instance) *Guest {
	key := weak.Make(in)
	if st, ok := states.Load(key); ok {
		return &Guest{in: in, st: st.(*state)}
	}
	st, loaded := states.LoadOrStore(key, newState())
	if !loaded {
		runtime.AddCleanup(in, func(k weak.Pointer[wasmhost.Instance]) { states.Delete(k) }, key)
	}
	return &Guest{in: in, st: st.(*state)}
}

// Instance returns the bound instance.
func (g *Guest) Instance() *wasmhost.Instance { return g.in }

func (g *Guest) ctx(ctx context.Context) context.Context {
	return context.WithValue(ctx, stateKey{}, g.st)
}

`)
	for _, r := range h.guestRes {
		n := goName(*r.Name)
		b.WriteString(comment(n, "is a handle to the guest resource \""+*r.Name+"\" ("+h.m.owner(r).qualified+"), pinned to the instance that created it. Drop it when done.", r.Docs.Contents))
		fmt.Fprintf(b, "type %s struct {\ng *Guest\nhandle uint32\n}\n\n", n)
		fmt.Fprintf(b, "// Handle returns the handle's number in the instance's table.\nfunc (r *%s) Handle() uint32 { return r.handle }\n\n", n)
		o := h.m.owner(r)
		dtor := o.qualified + "#[dtor]" + *r.Name
		fmt.Fprintf(b, "// Drop removes the handle and runs the guest's destructor.\nfunc (r *%s) Drop(ctx context.Context) error {\nst := r.g.st\nrep, err := st.%s.Remove(r.handle)\nif err != nil {\nreturn err\n}\n", n, tableField(r))
		fmt.Fprintf(b, "return r.g.in.Invoke(r.g.ctx(ctx), %q, func(c *wasmhost.Call, f []uint64) error {\nf[0] = uint64(rep)\nreturn nil\n}, nil)\n}\n\n", dtor)
	}
	for _, in := range h.m.ifaces {
		if !in.exported {
			continue
		}
		for _, fn := range in.funcs {
			h.genExportCall(b, in, fn)
		}
	}
}

// genExportCall writes the Go method calling one guest export.
func (h *hostGen) genExportCall(b *strings.Builder, in *iface, fn *wit.Function) {
	c := h.c
	kind, res := classify(fn)
	if kind == kindStatic {
		c.fail("%s: static functions are not supported", fn.Name)
		return
	}
	exportName := in.qualified + "#" + fn.Name
	s := shapeOf(c, fn)
	recv := "(g *Guest)"
	if kind == kindMethod {
		recv = "(r *" + goName(*res.Name) + ")"
	}
	results := h.hostResults(fn)
	b.WriteString(funcDoc(funcGoName(fn), fn.Docs.Contents))
	fmt.Fprintf(b, "func %s %s(%s) %s {\n", recv, funcGoName(fn), strings.Join(h.hostParams(fn, kind == kindMethod), ", "), results)
	if kind == kindMethod {
		b.WriteString("g := r.g\n")
	}
	b.WriteString("st := g.st\n_ = st\n")
	// Zero results for early returns.
	var zero string
	switch {
	case s.t == nil:
		zero = ""
	case s.res == nil:
		fmt.Fprintf(b, "var v %s\n", c.goType(s.t))
		zero = "v, "
	case s.res.OK != nil:
		fmt.Fprintf(b, "var v %s\n", c.goType(s.res.OK))
		zero = "v, "
	}
	if s.res != nil {
		fmt.Fprintf(b, "var fault %s\nisFault := false\n", c.goType(s.res.Err))
	}
	pt := paramTypes(fn)
	// Host resources lent for the call are returned afterwards.
	var lent []string
	for i, t := range pt {
		if bor, ok := kindOf(t).(*wit.Borrow); ok && !h.isGuestRes(bor.Type.Root()) {
			hv := fmt.Sprintf("lent%d", i)
			fmt.Fprintf(b, "%s := st.%s.Add(%s)\ndefer st.%s.Remove(%s)\n", hv, tableField(bor.Type.Root()), paramName(fn.Params[i].Name), tableField(bor.Type.Root()), hv)
			lent = append(lent, hv)
		} else {
			lent = append(lent, "")
		}
	}
	if kind == kindMethod {
		fmt.Fprintf(b, "rep, err := st.%s.Get(r.handle)\nif err != nil {\nreturn %serr\n}\n", tableField(res), zero)
	}
	// lower
	b.WriteString("lower := func(c *wasmhost.Call, f []uint64) error {\n")
	argExpr := func(i int) string { return paramName(fn.Params[i].Name) }
	nflat := flatCount(pt)
	if nflat > wit.MaxFlatParams {
		size, align := tupleLayout(pt)
		fmt.Fprintf(b, "ptr, err := c.Alloc(%d, %d)\nif err != nil {\nreturn err\n}\nargs := make([]byte, %d)\n", size, align, size)
		offs := fieldOffsets(pt)
		for i, t := range pt {
			b.WriteString(c.store(t, fmt.Sprintf("args[%d:]", offs[i]), argExpr(i), fn.Name+"."+fn.Params[i].Name))
		}
		b.WriteString("if err := c.WriteBytes(ptr, args); err != nil {\nreturn err\n}\nf[0] = uint64(ptr)\n")
	} else {
		idx := 0
		for i, t := range pt {
			switch {
			case kind == kindMethod && i == 0:
				fmt.Fprintf(b, "f[%d] = uint64(rep)\n", idx)
			case lent[i] != "":
				fmt.Fprintf(b, "f[%d] = uint64(%s)\n", idx, lent[i])
			default:
				b.WriteString(c.lower(t, "f", idx, argExpr(i), fn.Name+"."+fn.Params[i].Name))
			}
			idx += len(t.Flat())
		}
	}
	b.WriteString("return nil\n}\n")
	// lift
	liftArg := "nil"
	if s.t != nil {
		liftArg = "lift"
		b.WriteString("lift := func(c *wasmhost.Call, f []uint64) error {\n")
		if len(flatTypes(s.t)) <= 1 {
			b.WriteString(h.liftResult(s, "flat", "f", fn.Name))
		} else {
			fmt.Fprintf(b, "ret, err := canon.ReadRecord(c, uint32(f[0]), %d, %d)\nif err != nil {\nreturn err\n}\n", s.t.Size(), s.t.Align())
			b.WriteString(h.liftResult(s, "memory", "ret", fn.Name))
		}
		b.WriteString("return nil\n}\n")
	}
	fmt.Fprintf(b, "if err := g.in.Invoke(g.ctx(ctx), %q, lower, %s); err != nil {\nreturn %serr\n}\n", exportName, liftArg, zero)
	if s.res != nil {
		fmt.Fprintf(b, "if isFault {\nreturn %sfault\n}\n", zero)
	}
	fmt.Fprintf(b, "return %snil\n}\n\n", zero)
}

// liftResult returns statements lifting an export's result from r into v
// (and fault, setting isFault, for results).
func (h *hostGen) liftResult(s resultShape, from, r, fname string) string {
	c := h.c
	var b strings.Builder
	if s.res == nil {
		if from == "flat" {
			b.WriteString(c.lift(s.t, r, 0, "v", fname))
		} else {
			b.WriteString(c.load(s.t, r, "v", fname))
		}
		return b.String()
	}
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
	b.WriteString("case 1:\nisFault = true\n")
	if from == "flat" {
		b.WriteString(c.lift(s.res.Err, r, 1, "fault", fname))
	} else {
		b.WriteString(c.load(s.res.Err, fmt.Sprintf("%s[%d:]", r, off), "fault", fname))
	}
	fmt.Fprintf(&b, "default:\nreturn canon.BadCase(%q, uint32(%s), 2)\n}\n", fname+" result", disc)
	return b.String()
}

// genWorld writes the WorldSpec and the capability list.
func (h *hostGen) genWorld(f *goFile) {
	b := &f.body
	var caps []string
	for _, in := range h.m.ifaces {
		if in.capability != "" {
			caps = append(caps, quote(in.capability))
		}
	}
	fmt.Fprintf(b, "// Capabilities lists the grants that make capability interfaces importable,\n// each named after its interface.\nvar Capabilities = []string{%s}\n\n", strings.Join(caps, ", "))
	fmt.Fprintf(b, "// WorldSpec returns what the host expects of an artifact of the world\n// %s@%s (%s): every import it may use and every export it may or\n// must provide, with their core signatures. Imports of capability interfaces\n// are listed; HostModules decides which are served.\nfunc WorldSpec() wasmhost.WorldSpec {\nreturn wasmhost.WorldSpec{\nPackage: %q,\nVersion: %q,\nImports: []wasmhost.ImportSpec{\n",
		h.m.pkg, h.m.version, h.m.world.Name, h.m.pkg, h.m.version)
	for _, in := range h.m.ifaces {
		if in.exported {
			continue
		}
		for _, fn := range in.funcs {
			p, r := coreSignature(fn, false)
			fmt.Fprintf(b, "{Module: %q, Name: %q, Sig: %s},\n", in.qualified, fn.Name, sigLiteral(p, r))
		}
		for _, td := range in.types {
			if _, isRes := td.Kind.(*wit.Resource); isRes {
				fmt.Fprintf(b, "{Module: %q, Name: %q, Sig: %s},\n", in.qualified, "[resource-drop]"+*td.Name, sigLiteral([]coreType{coreI32}, nil))
			}
		}
	}
	for _, r := range h.guestRes {
		q := "[export]" + h.m.owner(r).qualified
		fmt.Fprintf(b, "{Module: %q, Name: %q, Sig: %s},\n", q, "[resource-new]"+*r.Name, sigLiteral([]coreType{coreI32}, []coreType{coreI32}))
		fmt.Fprintf(b, "{Module: %q, Name: %q, Sig: %s},\n", q, "[resource-rep]"+*r.Name, sigLiteral([]coreType{coreI32}, []coreType{coreI32}))
		fmt.Fprintf(b, "{Module: %q, Name: %q, Sig: %s},\n", q, "[resource-drop]"+*r.Name, sigLiteral([]coreType{coreI32}, nil))
	}
	b.WriteString("},\nExports: []wasmhost.ExportSpec{\n")
	for _, in := range h.m.ifaces {
		if !in.exported {
			continue
		}
		opt := !h.cfg.required[in.name]
		for _, fn := range in.funcs {
			p, r := coreSignature(fn, true)
			fmt.Fprintf(b, "{Name: %q, Sig: %s, Optional: %v},\n", in.qualified+"#"+fn.Name, sigLiteral(p, r), opt)
		}
		for _, td := range in.types {
			if _, isRes := td.Kind.(*wit.Resource); isRes {
				fmt.Fprintf(b, "{Name: %q, Sig: %s, Optional: true},\n", in.qualified+"#[dtor]"+*td.Name, sigLiteral([]coreType{coreI32}, nil))
			}
		}
	}
	b.WriteString("},\n}\n}\n")
}
