package wasmhost

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tetratelabs/wabin/wasm"

	"github.com/smith-agent/smith/wasmhost/internal/fuel"
)

// exportInfo is what the host knows about one world export of an artifact.
type exportInfo struct {
	sig  Signature
	post bool // the artifact exports cabi_post_<name>
}

var reallocSig = sig(i32s(4), i32s(1))

// validation collects the problems of one artifact.
type validation struct {
	world    *WorldSpec
	hosts    map[string]map[string]HostFuncDef
	memPages uint32
	problems []Problem
	exports  map[string]exportInfo
	hasInit  bool
	// otherVersion is set once a name targets another version of the
	// world; the missing exports that follow from it are not reported.
	otherVersion bool
	// instrumented admits (and then requires) exactly what Instrument adds:
	// the fuel module's imports and the two fuel globals' exports.
	instrumented bool
	fuelSeen     map[string]bool
}

// fuelImports are the signatures of the imports Instrument adds.
var fuelImports = map[string]Signature{
	fuel.YieldName: {},
	fuel.GrowName:  sig(i32s(1), i32s(1)),
	fuel.DepthName: {},
}

func (v *validation) add(item, got, want, fix string) {
	v.problems = append(v.problems, Problem{Item: item, Got: got, Want: want, Fix: fix})
}

func coreSig(t *wasm.FunctionType) Signature {
	s := Signature{}
	for _, p := range t.Params {
		s.Params = append(s.Params, ValueType(p))
	}
	for _, r := range t.Results {
		s.Results = append(s.Results, ValueType(r))
	}
	return s
}

// check validates m against the world, the granted host modules and the
// memory budget.
func (v *validation) check(m *wasm.Module) {
	w := v.world
	rebuild := fmt.Sprintf("rebuild the plugin against the %s@%s WIT", w.Package, w.Version)
	var funcTypes []*wasm.FunctionType // function index space
	typeOf := func(idx uint32) *wasm.FunctionType {
		if idx < uint32(len(m.TypeSection)) {
			return m.TypeSection[idx]
		}
		return nil
	}
	for _, imp := range m.ImportSection {
		item := fmt.Sprintf("import %q %q", imp.Module, imp.Name)
		if imp.Type != wasm.ExternTypeFunc {
			v.add(item, "imports a "+wasm.ExternTypeName(imp.Type), "only function imports",
				"define memories, tables and globals inside the module")
			continue
		}
		t := typeOf(imp.DescFunc)
		funcTypes = append(funcTypes, t)
		if t == nil {
			v.add(item, fmt.Sprintf("refers to type %d, which does not exist", imp.DescFunc), "", "the module is malformed; rebuild it")
			continue
		}
		got := coreSig(t)
		switch {
		case imp.Module == wasiModule:
			want, ok := wasiSubset[imp.Name]
			if !ok {
				fix := "plugins have no files, environment or network beyond the WASI subset; remove the call"
				if strings.HasPrefix(imp.Name, "sock_") {
					fix = "plugins have no sockets; use the http capability interface instead"
				}
				v.add(item, "is not in the sandbox's WASI subset", "one of "+wasiNames(), fix)
			} else if !want.equal(t.Params, t.Results) {
				v.add(item, "has signature "+got.String(), want.String(), "the module was built for a different WASI; build for wasip1")
			}
		case imp.Module == fuel.Module && v.instrumented:
			if want, ok := fuelImports[imp.Name]; !ok || !want.same(got) {
				v.add(item, "has signature "+got.String()+" in the instrumentation's module", "one of the imports Instrument adds",
					"rebuild the plugin with this build's tools (go run ./tools/pluginbuild)")
			}
			v.fuelSeen[imp.Name] = true
		case imp.Module == fuel.Module:
			v.add(item, "uses the reserved module name "+fuel.Module, "", "rename the import module")
		default:
			v.checkWorldImport(item, imp, got, rebuild)
		}
	}
	for _, ti := range m.FunctionSection {
		funcTypes = append(funcTypes, typeOf(ti))
	}
	funcSig := func(idx uint32) (Signature, bool) {
		if idx >= uint32(len(funcTypes)) || funcTypes[idx] == nil {
			return Signature{}, false
		}
		return coreSig(funcTypes[idx]), true
	}

	if m.MemorySection == nil {
		v.add("memory", "the module defines no memory", "one memory exported as \"memory\"",
			"canonical-ABI guests define and export their memory")
	} else if m.MemorySection.Min > v.memPages {
		v.add("memory", fmt.Sprintf("declares %d initial pages", m.MemorySection.Min),
			fmt.Sprintf("at most %d pages (%d KiB, its memory budget)", v.memPages, uint64(v.memPages)*64),
			"lower the module's initial memory or raise the plugin's memory budget")
	}

	wantExports := map[string]*ExportSpec{}
	for i := range w.Exports {
		wantExports[w.Exports[i].Name] = &w.Exports[i]
	}
	seen := map[string]bool{}
	posts := map[string]Signature{}
	sawMemory, sawRealloc, sawWorld := false, false, false
	for _, e := range m.ExportSection {
		item := fmt.Sprintf("export %q", e.Name)
		seen[e.Name] = true
		if e.Name == "memory" {
			sawMemory = true
			if e.Type != wasm.ExternTypeMemory {
				v.add(item, "is a "+wasm.ExternTypeName(e.Type), "the module's memory", "export the linear memory as \"memory\"")
			}
			continue
		}
		if v.instrumented && e.Type == wasm.ExternTypeGlobal && (e.Name == fuel.GlobalExport || e.Name == fuel.DepthExport) {
			v.fuelSeen[e.Name] = true
			continue
		}
		if e.Type == wasm.ExternTypeGlobal && linkerGlobals[e.Name] {
			continue // the host never reads them
		}
		if e.Type != wasm.ExternTypeFunc {
			v.add(item, "exports a "+wasm.ExternTypeName(e.Type), "only functions and \"memory\"", "remove the export")
			continue
		}
		got, ok := funcSig(e.Index)
		if !ok {
			v.add(item, fmt.Sprintf("refers to function %d, which does not exist", e.Index), "", "the module is malformed; rebuild it")
			continue
		}
		switch {
		case e.Name == "cabi_realloc":
			sawRealloc = true
			if !got.same(reallocSig) {
				v.add(item, "has signature "+got.String(), reallocSig.String()+" (old_ptr, old_size, align, new_size) -> ptr", "export the canonical ABI's cabi_realloc")
			}
		case e.Name == "_initialize":
			v.hasInit = true
			if len(got.Params) != 0 || len(got.Results) != 0 {
				v.add(item, "has signature "+got.String(), "() -> ()", "build the plugin as a reactor (Go: -buildmode=c-shared)")
			}
		case strings.HasPrefix(e.Name, "cabi_post_"):
			posts[strings.TrimPrefix(e.Name, "cabi_post_")] = got
		case strings.HasPrefix(e.Name, fuel.Module):
			v.add(item, "uses the reserved prefix "+fuel.Module, "", "rename the export")
		default:
			spec, ok := wantExports[e.Name]
			if !ok {
				v.checkUnknownExport(item, e.Name, rebuild)
				continue
			}
			sawWorld = true
			if !spec.Sig.same(got) {
				v.add(item, "has signature "+got.String(), spec.Sig.String(), rebuild)
				continue
			}
			v.exports[e.Name] = exportInfo{sig: spec.Sig}
		}
	}
	for name, got := range posts {
		item := fmt.Sprintf("export %q", "cabi_post_"+name)
		spec, ok := wantExports[name]
		if !ok || !seen[name] {
			v.add(item, "is the post-return of "+quote(name)+", which the module does not export as a world function", "", "remove it or export "+quote(name))
			continue
		}
		want := Signature{Params: spec.Sig.Results}
		if !want.same(got) {
			v.add(item, "has signature "+got.String(), want.String()+" (the results of "+quote(name)+")", rebuild)
			continue
		}
		if info, ok := v.exports[name]; ok {
			info.post = true
			v.exports[name] = info
		}
	}
	if !sawMemory && m.MemorySection != nil {
		v.add("export \"memory\"", "is missing", "the linear memory exported as \"memory\"", "export the memory")
	}
	if !sawRealloc {
		v.add("export \"cabi_realloc\"", "is missing", reallocSig.String(), "export the canonical ABI's cabi_realloc allocator")
	}
	if v.instrumented {
		for _, name := range []string{fuel.YieldName, fuel.GrowName, fuel.DepthName, fuel.GlobalExport, fuel.DepthExport} {
			if !v.fuelSeen[name] {
				v.add("artifact", "is marked Instrumented but lacks the instrumentation's "+quote(name), "the output of wasmhost.Instrument",
					"rebuild the plugin with this build's tools (go run ./tools/pluginbuild), or leave Artifact.Instrumented empty")
			}
		}
	}
	if v.otherVersion {
		return
	}
	for _, spec := range w.Exports {
		if !spec.Optional && !seen[spec.Name] {
			v.add(fmt.Sprintf("export %q", spec.Name), "is missing", spec.Sig.String(), "implement it; the world requires it")
		}
	}
	if !sawWorld && len(w.Exports) > 0 {
		v.add("artifact", "exports no function of "+w.Package+"@"+w.Version, "a "+w.Package+" plugin", rebuild)
	}
}

// checkWorldImport checks an import against the world and the grants.
func (v *validation) checkWorldImport(item string, imp *wasm.Import, got Signature, rebuild string) {
	w := v.world
	for _, spec := range w.Imports {
		if spec.Module != imp.Module || spec.Name != imp.Name {
			continue
		}
		if !spec.Sig.same(got) {
			v.add(item, "has signature "+got.String(), spec.Sig.String(), rebuild)
			return
		}
		fns, ok := v.hosts[imp.Module]
		if _, granted := fns[imp.Name]; !ok || !granted {
			v.add(item, "is a capability this plugin was not granted", "", "grant the capability in the plugin's manifest, or remove the import")
		}
		return
	}
	if ver, ok := versionOf(imp.Module, w.Package); ok && ver != w.Version {
		v.otherVersion = true
		v.add(item, "targets "+w.Package+"@"+ver, w.Package+"@"+w.Version, rebuild)
		return
	}
	v.add(item, "is not part of world "+w.Package+"@"+w.Version, "an import the world declares", "remove the import or "+rebuild)
}

// linkerGlobals are the global exports wasm-ld adds to every cdylib it
// links (rustc's wasm32 output, clang's): the layout of the module's
// static data. They are accepted and ignored, so that such a guest loads
// as built.
var linkerGlobals = map[string]bool{"__heap_base": true, "__data_end": true}

func (v *validation) checkUnknownExport(item, name, rebuild string) {
	w := v.world
	if iface, _, ok := strings.Cut(name, "#"); ok {
		if ver, ok := versionOf(iface, w.Package); ok && ver != w.Version {
			v.otherVersion = true
			v.add(item, "targets "+w.Package+"@"+ver, w.Package+"@"+w.Version, rebuild)
			return
		}
		if ns, _, ok := strings.Cut(w.Package, ":"); ok && strings.HasPrefix(iface, ns+":") {
			v.add(item, "is an interface of the "+ns+": namespace, which is reserved for the host's own contracts, and not one world "+w.Package+"@"+w.Version+" declares",
				"an export the world declares", "name your own interfaces in a namespace of your own (such as acme:tools/...), or remove the export")
			return
		}
	}
	v.add(item, "is not part of world "+w.Package+"@"+w.Version, "an export the world declares", "remove the export or "+rebuild)
}

// versionOf returns the version in a component-model interface name
// "<pkg>/<iface>@<version>" when it belongs to pkg.
func versionOf(name, pkg string) (string, bool) {
	rest, ok := strings.CutPrefix(name, pkg+"/")
	if !ok {
		return "", false
	}
	_, ver, ok := strings.Cut(rest, "@")
	return ver, ok
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

func wasiNames() string {
	names := make([]string, 0, len(wasiSubset))
	for n := range wasiSubset {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
