package wasmhost

import (
	"fmt"

	"github.com/tetratelabs/wabin/wasm"
)

// Surface is what an artifact asks of a host and offers it: the names of
// its function imports and of its function exports, in module order.
type Surface struct {
	Imports []ImportName
	Exports []string
}

// ImportName is one function import: its module and field name, as in
// "smith:plugin/fs@0.0.0" "read-file".
type ImportName struct {
	Module, Name string
}

// ReadSurface decodes the import and export sections of the core module
// raw (the code is not decoded). It is safe for concurrent use.
func ReadSurface(raw []byte) (Surface, error) {
	m, err := decodeHeader(raw)
	if err != nil {
		return Surface{}, fmt.Errorf("wasmhost: not a WebAssembly core module: %w", err)
	}
	var s Surface
	for _, imp := range m.ImportSection {
		if imp.Type == wasm.ExternTypeFunc {
			s.Imports = append(s.Imports, ImportName{Module: imp.Module, Name: imp.Name})
		}
	}
	for _, e := range m.ExportSection {
		if e.Type == wasm.ExternTypeFunc {
			s.Exports = append(s.Exports, e.Name)
		}
	}
	return s, nil
}
