package main

import (
	"fmt"
	"path"
	"strings"

	"go.bytecodealliance.org/wit"
)

// hostConfig says where the host bindings go.
type hostConfig struct {
	dir      string // output directory
	pkg      string // Go package name
	required map[string]bool
}

// hostGen generates the host bindings of a world into one package.
type hostGen struct {
	m        *model
	cfg      hostConfig
	c        *codec
	errTypes map[*wit.TypeDef]bool
	// resources by kind: host resources are implemented by the host and
	// imported by the guest; guest resources are exported by the guest.
	hostRes, guestRes []*wit.TypeDef
}

func (h *hostGen) isGuestRes(r *wit.TypeDef) bool {
	o := h.m.owner(r)
	return o != nil && o.exported
}

// genHost writes the host bindings: types, import adapters, export calls,
// the WorldSpec and the codec helpers.
func genHost(m *model, cfg hostConfig, errTypes map[*wit.TypeDef]bool, source string, out output) error {
	h := &hostGen{m: m, cfg: cfg, errTypes: errTypes}
	names := map[string]string{}
	h.c = newCodec(hostSide, func(td *wit.TypeDef) string { return goName(*td.Name) })
	h.c.handle = func(r *wit.TypeDef) handleCode {
		n := goName(*r.Name)
		if h.isGuestRes(r) {
			return handleCode{
				goType: "*" + n,
				lift: func(hv, dst string, own bool) string {
					return fmt.Sprintf("if _, err := st.%s.Get(%s); err != nil {\nreturn err\n}\n%s = &%s{g: g, handle: %s}\n", tableField(r), hv, dst, n, hv)
				},
				lower: func(v string, own bool) string {
					h.c.fail("guest resource %s may be passed back only as a method receiver", *r.Name)
					return ""
				},
			}
		}
		return handleCode{
			goType: n,
			lift: func(hv, dst string, own bool) string {
				op := "Get"
				if own {
					op = "Remove"
				}
				return fmt.Sprintf("{\nx, err := st.%s.%s(%s)\nif err != nil {\nreturn err\n}\n%s = x\n}\n", tableField(r), op, hv, dst)
			},
			lower: func(v string, own bool) string {
				return fmt.Sprintf("st.%s.Add(%s)", tableField(r), v)
			},
		}
	}
	types := &goFile{pkg: cfg.pkg, imports: map[string]bool{}}
	types.pkgDoc = ""
	for _, in := range m.ifaces {
		for _, td := range in.types {
			n := goName(*td.Name)
			if prev, dup := names[n]; dup {
				return errorf("host package %s: type %s of %s collides with one of %s; rename one in the WIT", cfg.pkg, n, in.name, prev)
			}
			names[n] = in.name
			if _, isRes := td.Kind.(*wit.Resource); isRes {
				if in.exported {
					h.guestRes = append(h.guestRes, td)
				} else {
					h.hostRes = append(h.hostRes, td)
				}
				continue
			}
			declareType(&types.body, h.c, in, td, errTypes[td])
		}
	}
	imports := &goFile{pkg: cfg.pkg, imports: map[string]bool{"github.com/smith-agent/smith/wasmhost": true, "github.com/smith-agent/smith/core/internal/pluginabi/canon": true}}
	exports := &goFile{pkg: cfg.pkg, imports: map[string]bool{"github.com/smith-agent/smith/wasmhost": true, "github.com/smith-agent/smith/core/internal/pluginabi/canon": true}}
	h.genState(exports)
	if err := h.genImports(imports); err != nil {
		return err
	}
	h.genExports(exports)
	world := &goFile{pkg: cfg.pkg, imports: map[string]bool{"github.com/smith-agent/smith/wasmhost": true}}
	h.genWorld(world)
	helpers, err := h.c.drain()
	if err != nil {
		return err
	}
	codecFile := &goFile{pkg: cfg.pkg, imports: map[string]bool{"github.com/smith-agent/smith/wasmhost": true, "github.com/smith-agent/smith/core/internal/pluginabi/canon": true}}
	codecFile.body.WriteString(helpers)
	for name, f := range map[string]*goFile{"types_gen.go": types, "imports_gen.go": imports, "exports_gen.go": exports, "world_gen.go": world, "codec_gen.go": codecFile} {
		if err := out.add(path.Join(cfg.dir, name), f, source); err != nil {
			return err
		}
	}
	return nil
}

func tableField(r *wit.TypeDef) string {
	n := goName(*r.Name)
	return strings.ToLower(n[:1]) + n[1:] + "Table"
}

// genState writes the per-instance state: one handle table per resource.
func (h *hostGen) genState(f *goFile) {
	b := &f.body
	b.WriteString("// state is one guest instance's canonical-ABI state: its resource handle\n// tables. It is reached from host functions through the context.\ntype state struct {\n")
	for _, r := range h.hostRes {
		fmt.Fprintf(b, "%s *canon.Table[%s]\n", tableField(r), goName(*r.Name))
	}
	for _, r := range h.guestRes {
		fmt.Fprintf(b, "%s *canon.Table[uint32]\n", tableField(r))
	}
	b.WriteString("}\n\nfunc newState() *state {\nreturn &state{\n")
	for _, r := range h.hostRes {
		fmt.Fprintf(b, "%s: canon.NewTable[%s](%q),\n", tableField(r), goName(*r.Name), *r.Name)
	}
	for _, r := range h.guestRes {
		fmt.Fprintf(b, "%s: canon.NewTable[uint32](%q),\n", tableField(r), *r.Name)
	}
	b.WriteString("}\n}\n\ntype stateKey struct{}\n\n")
	b.WriteString("// stateOf returns the instance state the export call put in ctx.\nfunc stateOf(ctx context.Context) (*state, error) {\nst, _ := ctx.Value(stateKey{}).(*state)\nif st == nil {\nreturn nil, errors.New(" + quote(h.cfg.pkg+": a host function ran outside a call made through Guest; call exports only through Bind(instance)") + ")\n}\nreturn st, nil\n}\n\n")
}

// importsTypeName is the Go interface the host implements for an imported
// interface.
func importsTypeName(in *iface) string { return goName(in.name) + "Imports" }

// hostParams returns the Go parameter list of a host-side method.
func (h *hostGen) hostParams(f *wit.Function, skipSelf bool) []string {
	ps := []string{"ctx context.Context"}
	for i, p := range f.Params {
		if skipSelf && i == 0 {
			continue
		}
		ps = append(ps, paramName(p.Name)+" "+h.c.goType(p.Type))
	}
	return ps
}

// hostResults returns the Go results of a host-side method; every one can
// fail, so the last is always an error.
func (h *hostGen) hostResults(f *wit.Function) string {
	s := shapeOf(h.c, f)
	switch {
	case s.t == nil:
		return "error"
	case s.res == nil:
		return "(" + h.c.goType(s.t) + ", error)"
	}
	return s.goTypes
}

func (h *hostGen) genImports(f *goFile) error {
	b := &f.body
	var hostsFields, modules strings.Builder
	for _, in := range h.m.ifaces {
		if in.exported {
			continue
		}
		if len(in.funcs) == 0 {
			continue
		}
		tn := importsTypeName(in)
		doc := "is what the host implements to serve " + in.qualified + " to guests."
		if in.capability != "" {
			doc += " Guests may import it only when granted the capability " + quote(in.capability) + "."
		}
		doc += " Returning the interface's fault type as the error hands it to the guest as the result's error; any other error aborts the guest, whose instance is destroyed."
		b.WriteString(comment(tn, doc, in.wi.Docs.Contents))
		b.WriteString("type " + tn + " interface {\n")
		for _, fn := range in.funcs {
			kind, _ := classify(fn)
			if kind == kindMethod {
				continue
			}
			b.WriteString(funcDoc(funcGoName(fn), fn.Docs.Contents))
			fmt.Fprintf(b, "%s(%s) %s\n", funcGoName(fn), strings.Join(h.hostParams(fn, false), ", "), h.hostResults(fn))
		}
		b.WriteString("}\n\n")
		for _, td := range in.types {
			if _, isRes := td.Kind.(*wit.Resource); !isRes {
				continue
			}
			n := goName(*td.Name)
			b.WriteString(comment(n, "is a host resource \""+*td.Name+"\" ("+in.qualified+") lent to or owned by a guest through a handle.", td.Docs.Contents))
			b.WriteString("type " + n + " interface {\n")
			for _, fn := range in.funcs {
				kind, res := classify(fn)
				if kind != kindMethod || res != td {
					continue
				}
				b.WriteString(funcDoc(funcGoName(fn), fn.Docs.Contents))
				fmt.Fprintf(b, "%s(%s) %s\n", funcGoName(fn), strings.Join(h.hostParams(fn, true), ", "), h.hostResults(fn))
			}
			b.WriteString("}\n\n")
		}
		field := goName(in.name)
		fmt.Fprintf(&hostsFields, "// %s serves %s; nil means the interface is not served.\n%s %s\n", field, in.qualified, field, tn)
		fmt.Fprintf(&modules, "if h.%s != nil {\n", field)
		if in.capability != "" {
			fmt.Fprintf(&modules, "if !granted[%q] {\nreturn nil, errors.New(%q)\n}\n", in.capability,
				h.cfg.pkg+": Hosts."+field+" is set but the capability \""+in.capability+"\" is not granted; grant it or leave the field nil")
		}
		fmt.Fprintf(&modules, "mods = append(mods, module%s(h.%s))\n}\n", field, field)
		if in.capability == "" {
			fmt.Fprintf(&modules, "if h.%s == nil {\nreturn nil, errors.New(%q)\n}\n", field, h.cfg.pkg+": Hosts."+field+" is nil; every plugin may import "+in.qualified+", so the host must serve it")
		}
		if err := h.genImportModule(f, in); err != nil {
			return err
		}
	}
	if len(h.guestRes) > 0 {
		h.genExportResourceModules(f, &modules)
	}
	b.WriteString("// Hosts holds the host's implementations of the world's imported interfaces.\ntype Hosts struct {\n" + hostsFields.String() + "}\n\n")
	b.WriteString("// HostModules returns the wasmhost modules serving h to guests. A\n// capability interface is served only when granted holds its name;\n// setting an ungranted one is an error, so a guest importing it is refused\n// at validation. The canonical-ABI resource plumbing is always served.\n")
	b.WriteString("func HostModules(h Hosts, granted ...string) ([]wasmhost.HostModule, error) {\n_ = granted\nmods := []wasmhost.HostModule{}\n")
	if strings.Contains(modules.String(), "granted[") {
		b.WriteString("grantSet := map[string]bool{}\nfor _, g := range granted {\ngrantSet[g] = true\n}\n")
		b.WriteString(strings.ReplaceAll(modules.String(), "granted[", "grantSet["))
	} else {
		b.WriteString(modules.String())
	}
	b.WriteString("return mods, nil\n}\n\n")
	return nil
}

// genImportModule writes the wasmhost module of one imported interface.
func (h *hostGen) genImportModule(f *goFile, in *iface) error {
	b := &f.body
	field := goName(in.name)
	fmt.Fprintf(b, "func module%s(impl %s) wasmhost.HostModule {\nreturn wasmhost.HostModule{Name: %q, Funcs: []wasmhost.HostFuncDef{\n", field, importsTypeName(in), in.qualified)
	for _, fn := range in.funcs {
		h.genHostFunc(b, in, fn)
	}
	for _, td := range in.types {
		if _, isRes := td.Kind.(*wit.Resource); !isRes {
			continue
		}
		fmt.Fprintf(b, "{Name: %q, Sig: %s, Fn: func(ctx context.Context, c *wasmhost.Call, stack []uint64) error {\nst, err := stateOf(ctx)\nif err != nil {\nreturn err\n}\n_, err = st.%s.Remove(uint32(stack[0]))\nreturn err\n}},\n",
			"[resource-drop]"+*td.Name, sigLiteral([]coreType{coreI32}, nil), tableField(td))
	}
	b.WriteString("}}\n}\n\n")
	return nil
}

// genHostFunc writes one HostFuncDef adapting a guest's call to impl.
func (h *hostGen) genHostFunc(b *strings.Builder, in *iface, fn *wit.Function) {
	c := h.c
	kind, _ := classify(fn)
	cp, cr := coreSignature(fn, false)
	fmt.Fprintf(b, "{Name: %q, Sig: %s, Fn: func(ctx context.Context, c *wasmhost.Call, stack []uint64) error {\n", fn.Name, sigLiteral(cp, cr))
	b.WriteString("st, err := stateOf(ctx)\nif err != nil {\nreturn err\n}\n_ = st\n")
	pt := paramTypes(fn)
	var args []string
	for i, t := range pt {
		a := fmt.Sprintf("a%d", i)
		fmt.Fprintf(b, "var %s %s\n", a, c.goType(t))
		args = append(args, a)
	}
	nflat := flatCount(pt)
	if nflat > wit.MaxFlatParams {
		size, align := tupleLayout(pt)
		fmt.Fprintf(b, "args, err := canon.ReadRecord(c, uint32(stack[0]), %d, %d)\nif err != nil {\nreturn err\n}\n", size, align)
		offs := fieldOffsets(pt)
		for i, t := range pt {
			b.WriteString((c.load(t, fmt.Sprintf("args[%d:]", offs[i]), args[i], fn.Name+"."+fn.Params[i].Name)))
		}
	} else {
		idx := 0
		for i, t := range pt {
			b.WriteString((c.lift(t, "stack", idx, args[i], fn.Name+"."+fn.Params[i].Name)))
			idx += len(t.Flat())
		}
	}
	target := "impl." + funcGoName(fn)
	callArgs := append([]string{"ctx"}, args...)
	if kind == kindMethod {
		target = "a0." + funcGoName(fn)
		callArgs = append([]string{"ctx"}, args[1:]...)
	}
	invoke := target + "(" + strings.Join(callArgs, ", ") + ")"
	s := shapeOf(c, fn)
	if s.t == nil {
		b.WriteString("return " + invoke + "\n}},\n")
		return
	}
	switch {
	case s.res == nil:
		b.WriteString("v, err := " + invoke + "\nif err != nil {\nreturn err\n}\n")
	case s.res.OK == nil:
		b.WriteString("callErr := " + invoke + "\n")
	default:
		b.WriteString("v, callErr := " + invoke + "\n")
	}
	if s.res != nil {
		et := c.goType(s.res.Err)
		fmt.Fprintf(b, "var fault %s\nisFault := false\nif callErr != nil {\nif !errors.As(callErr, &fault) {\nreturn callErr\n}\nisFault = true\n}\n", et)
		if s.res.OK == nil {
			b.WriteString("var v struct{}\n_ = v\n")
		}
	}
	retIdx := len(cp) - 1
	if len(cr) == 1 {
		b.WriteString("var r [1]uint64\n")
		b.WriteString((h.lowerResult(s, "flat", "r", fn.Name)))
		b.WriteString("stack[0] = r[0]\nreturn nil\n}},\n")
		return
	}
	fmt.Fprintf(b, "ret := make([]byte, %d)\n", s.t.Size())
	b.WriteString((h.lowerResult(s, "memory", "ret", fn.Name)))
	fmt.Fprintf(b, "return canon.WriteRecord(c, uint32(stack[%d]), %d, ret)\n}},\n", retIdx, s.t.Align())
}

// lowerResult returns statements lowering v (and fault, for results) into r.
func (h *hostGen) lowerResult(s resultShape, into, r, fname string) string {
	c := h.c
	var b strings.Builder
	if s.res == nil {
		if into == "flat" {
			b.WriteString(c.lower(s.t, r, 0, "v", fname))
		} else {
			b.WriteString(c.store(s.t, r, "v", fname))
		}
		return b.String()
	}
	off := payloadOffset([]wit.Type{s.res.OK, s.res.Err})
	b.WriteString("if isFault {\n")
	if into == "flat" {
		fmt.Fprintf(&b, "%s[0] = 1\n%s", r, c.lower(s.res.Err, r, 1, "fault", fname))
	} else {
		fmt.Fprintf(&b, "%s[0] = 1\n%s", r, c.store(s.res.Err, fmt.Sprintf("%s[%d:]", r, off), "fault", fname))
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

// genExportResourceModules writes the "[export]<iface>" modules through
// which a guest creates handles to its own resources.
func (h *hostGen) genExportResourceModules(f *goFile, modules *strings.Builder) {
	b := &f.body
	byIface := map[*iface][]*wit.TypeDef{}
	var order []*iface
	for _, r := range h.guestRes {
		o := h.m.owner(r)
		if _, seen := byIface[o]; !seen {
			order = append(order, o)
		}
		byIface[o] = append(byIface[o], r)
	}
	for _, in := range order {
		fn := "module" + goName(in.name) + "Resources"
		fmt.Fprintf(modules, "mods = append(mods, %s())\n", fn)
		fmt.Fprintf(b, "func %s() wasmhost.HostModule {\nreturn wasmhost.HostModule{Name: %q, Funcs: []wasmhost.HostFuncDef{\n", fn, "[export]"+in.qualified)
		for _, r := range byIface[in] {
			t := tableField(r)
			fmt.Fprintf(b, "{Name: %q, Sig: %s, Fn: func(ctx context.Context, c *wasmhost.Call, stack []uint64) error {\nst, err := stateOf(ctx)\nif err != nil {\nreturn err\n}\nstack[0] = uint64(st.%s.Add(uint32(stack[0])))\nreturn nil\n}},\n",
				"[resource-new]"+*r.Name, sigLiteral([]coreType{coreI32}, []coreType{coreI32}), t)
			fmt.Fprintf(b, "{Name: %q, Sig: %s, Fn: func(ctx context.Context, c *wasmhost.Call, stack []uint64) error {\nst, err := stateOf(ctx)\nif err != nil {\nreturn err\n}\nrep, err := st.%s.Get(uint32(stack[0]))\nstack[0] = uint64(rep)\nreturn err\n}},\n",
				"[resource-rep]"+*r.Name, sigLiteral([]coreType{coreI32}, []coreType{coreI32}), t)
			fmt.Fprintf(b, "{Name: %q, Sig: %s, Fn: func(ctx context.Context, c *wasmhost.Call, stack []uint64) error {\nst, err := stateOf(ctx)\nif err != nil {\nreturn err\n}\n_, err = st.%s.Remove(uint32(stack[0]))\nreturn err\n}},\n",
				"[resource-drop]"+*r.Name, sigLiteral([]coreType{coreI32}, nil), t)
		}
		b.WriteString("}}\n}\n\n")
	}
}

func sigLiteral(params, results []coreType) string {
	list := func(ts []coreType) string {
		if len(ts) == 0 {
			return "nil"
		}
		parts := make([]string, len(ts))
		for i, t := range ts {
			parts[i] = "wasmhost." + string(t)
		}
		return "[]wasmhost.ValueType{" + strings.Join(parts, ", ") + "}"
	}
	return "wasmhost.Signature{Params: " + list(params) + ", Results: " + list(results) + "}"
}
