package main

import (
	"fmt"

	"go.bytecodealliance.org/wit"
)

// coreType is a WebAssembly core value type as witgen prints it.
type coreType string

const (
	coreI32 coreType = "I32"
	coreI64 coreType = "I64"
	coreF32 coreType = "F32"
	coreF64 coreType = "F64"
)

// flatCore maps a flattened WIT type to the core value type carrying it.
func flatCore(t wit.Type) coreType {
	switch t.(type) {
	case wit.F32:
		return coreF32
	case wit.F64:
		return coreF64
	}
	if t.Size() == 8 {
		return coreI64
	}
	return coreI32
}

// flatTypes returns the core types of t flattened.
func flatTypes(t wit.Type) []coreType {
	var out []coreType
	for _, f := range t.Flat() {
		out = append(out, flatCore(f))
	}
	return out
}

// alignTo rounds off up to a multiple of align.
func alignTo(off, align uintptr) uintptr { return wit.Align(off, align) }

// fieldOffsets returns the byte offset of each type laid out as a record.
func fieldOffsets(types []wit.Type) []uintptr {
	var off uintptr
	out := make([]uintptr, len(types))
	for i, t := range types {
		off = alignTo(off, t.Align())
		out[i] = off
		off += t.Size()
	}
	return out
}

// tupleLayout returns the size and alignment of types laid out as a record.
func tupleLayout(types []wit.Type) (size, align uintptr) {
	align = 1
	var off uintptr
	for _, t := range types {
		off = alignTo(off, t.Align())
		off += t.Size()
		align = max(align, t.Align())
	}
	return alignTo(off, align), align
}

// discSize is the byte size of a variant discriminant for n cases.
func discSize(n int) uintptr { return wit.Discriminant(n).Size() }

// payloadOffset is where a variant's payload starts in memory.
func payloadOffset(cases []wit.Type) uintptr {
	var a uintptr = 1
	for _, t := range cases {
		if t != nil {
			a = max(a, t.Align())
		}
	}
	return alignTo(discSize(len(cases)), a)
}

// root resolves type aliases (`use` and `type x = y`) to the defining type.
func root(t wit.Type) wit.Type {
	if td, ok := t.(*wit.TypeDef); ok {
		return td.Root()
	}
	return t
}

// caseTypes returns the payload types of a variant's cases (nil for none).
func caseTypes(v *wit.Variant) []wit.Type {
	out := make([]wit.Type, len(v.Cases))
	for i, c := range v.Cases {
		out[i] = c.Type
	}
	return out
}

// despecial returns t's kind after despecializing enums, options and
// results into variants, with the case names to use.
func kindOf(t wit.Type) wit.TypeDefKind {
	if td, ok := root(t).(*wit.TypeDef); ok {
		return td.Kind
	}
	return root(t)
}

func errorf(format string, args ...any) error { return fmt.Errorf("witgen: "+format, args...) }
