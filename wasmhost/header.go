package wasmhost

import (
	"bytes"
	"fmt"

	"github.com/tetratelabs/wabin/binary"
	"github.com/tetratelabs/wabin/leb128"
	"github.com/tetratelabs/wabin/wasm"
)

// headerSections are the sections validation reads besides the function
// section: types, imports, memory and exports. The code, data and custom
// sections (nearly all of a Go module's bytes) are not decoded, so a warm
// start whose instrumented module is cached never decodes them.
var headerSections = [...]bool{wasm.SectionIDType: true, wasm.SectionIDImport: true, wasm.SectionIDMemory: true, wasm.SectionIDExport: true}

// decodeHeader decodes the sections validation needs from raw: the ones in
// headerSections, plus the function section's type indices. Every other
// section is skipped after checking that its length fits; the full decode
// (and wazero's validation) happen when the module is instrumented or
// compiled.
func decodeHeader(raw []byte) (*wasm.Module, error) {
	if len(raw) < 8 || !bytes.Equal(raw[:4], binary.Magic) {
		return nil, binary.ErrInvalidMagicNumber
	}
	if !bytes.Equal(raw[4:8], []byte{1, 0, 0, 0}) {
		return nil, binary.ErrInvalidVersion
	}
	kept := append(make([]byte, 0, 4096), raw[:8]...)
	var funcs []wasm.Index
	r := bytes.NewReader(raw[8:])
	for r.Len() > 0 {
		at := len(raw) - r.Len()
		id, _ := r.ReadByte()
		size, _, err := leb128.DecodeUint32(r)
		if err != nil {
			return nil, fmt.Errorf("section %s at offset %d: size: %v", wasm.SectionIDName(id), at, err)
		}
		if int64(size) > int64(r.Len()) {
			return nil, fmt.Errorf("section %s at offset %d: declares %d bytes but %d remain", wasm.SectionIDName(id), at, size, r.Len())
		}
		start := len(raw) - r.Len()
		body := raw[start : start+int(size)]
		switch {
		case id == wasm.SectionIDFunction:
			if funcs, err = decodeFuncTypes(body); err != nil {
				return nil, fmt.Errorf("section function at offset %d: %v", at, err)
			}
		case int(id) < len(headerSections) && headerSections[id]:
			kept = append(kept, raw[at:start+int(size)]...)
		}
		if _, err := r.Seek(int64(size), 1); err != nil {
			return nil, err
		}
	}
	m, err := binary.DecodeModule(kept, wasm.CoreFeaturesV2)
	if err != nil {
		return nil, err
	}
	m.FunctionSection = funcs
	return m, nil
}

// decodeFuncTypes decodes the function section: a vector of type indices.
func decodeFuncTypes(body []byte) ([]wasm.Index, error) {
	r := bytes.NewReader(body)
	n, _, err := leb128.DecodeUint32(r)
	if err != nil {
		return nil, fmt.Errorf("count: %v", err)
	}
	if int64(n) > int64(r.Len()) { // each index takes at least one byte
		return nil, fmt.Errorf("declares %d functions in %d bytes", n, r.Len())
	}
	out := make([]wasm.Index, n)
	for i := range out {
		if out[i], _, err = leb128.DecodeUint32(r); err != nil {
			return nil, fmt.Errorf("function %d: %v", i, err)
		}
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%d trailing bytes", r.Len())
	}
	return out, nil
}
