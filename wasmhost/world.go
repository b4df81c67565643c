package wasmhost

import (
	"fmt"
	"slices"
	"strings"
)

// ValueType is a WebAssembly core value type. Its values are the binary
// encodings of the core types, so they compare directly with a decoded module.
type ValueType byte

// The four core number types; the canonical ABI flattens every WIT type into
// them.
const (
	I32 ValueType = 0x7f
	I64 ValueType = 0x7e
	F32 ValueType = 0x7d
	F64 ValueType = 0x7c
)

// String returns the WebAssembly text name of t, such as "i32".
func (t ValueType) String() string {
	switch t {
	case I32:
		return "i32"
	case I64:
		return "i64"
	case F32:
		return "f32"
	case F64:
		return "f64"
	}
	return fmt.Sprintf("valtype(0x%02x)", byte(t))
}

// Signature is a core function signature: flattened parameters and results.
type Signature struct {
	Params, Results []ValueType
}

// String renders s as "(i32, i32) -> (i32)".
func (s Signature) String() string {
	return "(" + joinTypes(s.Params) + ") -> (" + joinTypes(s.Results) + ")"
}

func joinTypes(ts []ValueType) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, ", ")
}

func (s Signature) same(o Signature) bool {
	return slices.Equal(s.Params, o.Params) && slices.Equal(s.Results, o.Results)
}

func (s Signature) equal(params, results []byte) bool {
	return sameTypes(s.Params, params) && sameTypes(s.Results, results)
}

func sameTypes(a []ValueType, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if byte(a[i]) != b[i] {
			return false
		}
	}
	return true
}

// ImportSpec is one function a world allows a guest to import: the module
// ("smith:plugin/host@0.0.0"), the function name ("read-file") and its core
// signature after canonical-ABI flattening.
type ImportSpec struct {
	Module, Name string
	Sig          Signature
}

// ExportSpec is one function a world expects a guest to export, named the
// component-model way ("smith:plugin/tool@0.0.0#invoke-tool"). Optional
// exports may be absent; a present one must match Sig. A guest may also export
// cabi_post_<Name>, whose parameters must equal Sig.Results.
type ExportSpec struct {
	Name     string
	Sig      Signature
	Optional bool
}

// WorldSpec is what a host expects of an artifact, as data: tools/witgen
// derives it from a WIT world. wasmhost knows no world by name; it checks an
// artifact against whatever WorldSpec it is given.
//
// The world version is read from the artifact's names (see the package
// documentation, "World version"): every import module and export under
// Package must carry "@"+Version.
type WorldSpec struct {
	Package string // "smith:plugin"
	Version string // "0.0.0"
	Imports []ImportSpec
	Exports []ExportSpec
}
