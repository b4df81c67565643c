package main

import (
	"slices"
	"strings"

	"go.bytecodealliance.org/wit"
)

// model is one WIT world prepared for generation.
type model struct {
	world   *wit.World
	pkg     string // "smith:plugin"
	version string // "0.0.0"
	ifaces  []*iface
	byIface map[*wit.Interface]*iface
}

// iface is one interface of the world with what the generators need.
type iface struct {
	wi         *wit.Interface
	name       string // "fs"
	qualified  string // "smith:plugin/fs@0.0.0"
	exported   bool
	capability string // the grant that makes it importable; "" for core
	types      []*wit.TypeDef
	funcs      []*wit.Function
}

// loadModel resolves the WIT package in dir and prepares world worldName.
// Interfaces the world imports that baseName (a world of the same package,
// if given) does not are capabilities, each granted under its own name.
func loadModel(dir, worldName, baseName string) (*model, error) {
	res, err := wit.LoadWIT(dir)
	if err != nil {
		return nil, errorf("load %s: %w", dir, err)
	}
	var world, base *wit.World
	for _, w := range res.Worlds {
		if w.Package == nil || w.Package.Name.Namespace == "wasi" {
			continue
		}
		switch w.Name {
		case worldName:
			world = w
		case baseName:
			base = w
		}
	}
	if world == nil {
		return nil, errorf("world %q not found in %s; pass -world with a world the package defines", worldName, dir)
	}
	if baseName != "" && base == nil {
		return nil, errorf("base world %q not found in %s", baseName, dir)
	}
	id := world.Package.Name
	m := &model{
		world:   world,
		pkg:     id.Namespace + ":" + id.Package,
		byIface: map[*wit.Interface]*iface{},
	}
	if id.Version != nil {
		m.version = id.Version.String()
	}
	baseImports := map[*wit.Interface]bool{}
	if base != nil {
		for _, item := range base.Imports.All() {
			if ref, ok := item.(*wit.InterfaceRef); ok {
				baseImports[ref.Interface] = true
			}
		}
	}
	add := func(items func(func(string, wit.WorldItem) bool), exported bool) error {
		var err error
		items(func(_ string, item wit.WorldItem) bool {
			ref, ok := item.(*wit.InterfaceRef)
			if !ok {
				err = errorf("world %s: only interfaces may be imported or exported, found %T", world.Name, item)
				return false
			}
			wi := ref.Interface
			if wi.Name == nil {
				err = errorf("world %s: anonymous interfaces are not supported; name the interface", world.Name)
				return false
			}
			if wi.Package != world.Package {
				err = errorf("world %s: interface %s is from another package", world.Name, *wi.Name)
				return false
			}
			in := &iface{wi: wi, name: *wi.Name, exported: exported}
			in.qualified = m.pkg + "/" + in.name
			if m.version != "" {
				in.qualified += "@" + m.version
			}
			for _, td := range wi.TypeDefs.All() {
				if _, alias := td.Kind.(*wit.TypeDef); alias {
					continue
				}
				in.types = append(in.types, td)
			}
			for _, f := range wi.Functions.All() {
				in.funcs = append(in.funcs, f)
			}
			if !exported && base != nil && !baseImports[wi] && len(in.funcs) > 0 {
				in.capability = in.name
			}
			m.ifaces = append(m.ifaces, in)
			m.byIface[wi] = in
			return true
		})
		return err
	}
	if err := add(world.Imports.All(), false); err != nil {
		return nil, err
	}
	if err := add(world.Exports.All(), true); err != nil {
		return nil, err
	}
	slices.SortStableFunc(m.ifaces, func(a, b *iface) int {
		if a.exported != b.exported {
			if a.exported {
				return 1
			}
			return -1
		}
		return strings.Compare(a.name, b.name)
	})
	return m, nil
}

// owner returns the interface defining td, or nil.
func (m *model) owner(td *wit.TypeDef) *iface {
	if wi, ok := td.Owner.(*wit.Interface); ok {
		return m.byIface[wi]
	}
	return nil
}

// resourceOf returns the resource a handle type refers to, or nil.
func resourceOf(t wit.Type) *wit.TypeDef {
	switch k := kindOf(t).(type) {
	case *wit.Own:
		return k.Type.Root()
	case *wit.Borrow:
		return k.Type.Root()
	}
	return nil
}

// funcKind classifies a function for the generators.
type funcKind int

const (
	kindFree funcKind = iota
	kindConstructor
	kindMethod
	kindStatic
)

func classify(f *wit.Function) (funcKind, *wit.TypeDef) {
	switch k := f.Kind.(type) {
	case *wit.Constructor:
		return kindConstructor, root(k.Type).(*wit.TypeDef)
	case *wit.Method:
		return kindMethod, root(k.Type).(*wit.TypeDef)
	case *wit.Static:
		return kindStatic, root(k.Type).(*wit.TypeDef)
	}
	return kindFree, nil
}

// paramTypes returns f's parameter types.
func paramTypes(f *wit.Function) []wit.Type {
	out := make([]wit.Type, len(f.Params))
	for i, p := range f.Params {
		out[i] = p.Type
	}
	return out
}

// resultType returns f's single result type, or nil.
func resultType(f *wit.Function) wit.Type {
	if len(f.Results) == 0 {
		return nil
	}
	return f.Results[0].Type
}

// flatCount is how many core values types flatten to.
func flatCount(types []wit.Type) int {
	n := 0
	for _, t := range types {
		n += len(t.Flat())
	}
	return n
}

// coreSignature returns f's core parameter and result types; imported
// functions get a trailing return pointer when results need memory.
func coreSignature(f *wit.Function, exported bool) (params, results []coreType) {
	pt := paramTypes(f)
	if flatCount(pt) > wit.MaxFlatParams {
		params = []coreType{coreI32}
	} else {
		for _, t := range pt {
			params = append(params, flatTypes(t)...)
		}
	}
	if r := resultType(f); r != nil {
		flat := flatTypes(r)
		switch {
		case len(flat) <= wit.MaxFlatResults:
			results = flat
		case exported:
			results = []coreType{coreI32}
		default:
			params = append(params, coreI32)
		}
	}
	return params, results
}
