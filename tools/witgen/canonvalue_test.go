package main

import (
	"encoding/binary"
	"fmt"
	"math"

	"go.bytecodealliance.org/wit"

	"github.com/smith-agent/smith/wasmhost"
)

// This file is a test-only canonical-ABI codec over dynamic Go values,
// written against the WIT package's own sizes and alignments and the
// rules of CanonicalABI.md, independently of the generators, so a round
// trip through a generated guest checks the generated code against it.
//
// Values: bool, uint8..uint64, int8..int64, float32, float64, rune
// (char), string, []byte (list<u8>), []any (other lists and records, in
// field order), and cv (variants, enums, options: case 0 is none, and
// results: case 0 is ok).

// cv is a value of a variant-like type: the case index and its payload.
type cv struct {
	Case int
	Val  any
}

func (v cv) String() string { return fmt.Sprintf("#%d(%v)", v.Case, v.Val) }

// cases returns the payload types of a variant-like type and whether t is
// one.
func cases(t wit.Type) ([]wit.Type, bool) {
	switch k := kindOf(t).(type) {
	case *wit.Variant:
		out := make([]wit.Type, len(k.Cases))
		for i, c := range k.Cases {
			out[i] = c.Type
		}
		return out, true
	case *wit.Enum:
		return make([]wit.Type, len(k.Cases)), true
	case *wit.Option:
		return []wit.Type{nil, k.Type}, true
	case *wit.Result:
		return []wit.Type{k.OK, k.Err}, true
	}
	return nil, false
}

// fields returns the field types of a record.
func fields(t wit.Type) ([]wit.Type, bool) {
	r, ok := kindOf(t).(*wit.Record)
	if !ok {
		return nil, false
	}
	out := make([]wit.Type, len(r.Fields))
	for i, f := range r.Fields {
		out[i] = f.Type
	}
	return out, true
}

func align(off, a uint32) uint32 { return (off + a - 1) &^ (a - 1) }

// variantLayout returns the discriminant size and payload offset.
func variantLayout(cs []wit.Type) (disc, payload uint32) {
	switch {
	case len(cs) <= 1<<8:
		disc = 1
	case len(cs) <= 1<<16:
		disc = 2
	default:
		disc = 4
	}
	a := uint32(1)
	for _, c := range cs {
		if c != nil {
			a = max(a, uint32(c.Align()))
		}
	}
	return disc, align(disc, a)
}

// mem reads and writes guest memory during one call.
type mem struct{ c *wasmhost.Call }

func (m mem) alloc(b []byte, a uint32) (uint32, error) {
	if len(b) == 0 {
		return a, nil
	}
	p, err := m.c.Alloc(uint32(len(b)), a)
	if err != nil {
		return 0, err
	}
	return p, m.c.WriteBytes(p, b)
}

// encode writes v of type t into b (the value's bytes in memory),
// allocating its strings and lists in guest memory.
func (m mem) encode(t wit.Type, v any, b []byte) error {
	le := binary.LittleEndian
	switch root(t).(type) {
	case wit.Bool:
		if v.(bool) {
			b[0] = 1
		}
		return nil
	case wit.U8:
		b[0] = v.(uint8)
		return nil
	case wit.S8:
		b[0] = byte(v.(int8))
		return nil
	case wit.U16:
		le.PutUint16(b, v.(uint16))
		return nil
	case wit.S16:
		le.PutUint16(b, uint16(v.(int16)))
		return nil
	case wit.U32:
		le.PutUint32(b, v.(uint32))
		return nil
	case wit.S32:
		le.PutUint32(b, uint32(v.(int32)))
		return nil
	case wit.Char:
		le.PutUint32(b, uint32(v.(rune)))
		return nil
	case wit.U64:
		le.PutUint64(b, v.(uint64))
		return nil
	case wit.S64:
		le.PutUint64(b, uint64(v.(int64)))
		return nil
	case wit.F32:
		le.PutUint32(b, math.Float32bits(v.(float32)))
		return nil
	case wit.F64:
		le.PutUint64(b, math.Float64bits(v.(float64)))
		return nil
	case wit.String:
		p, err := m.alloc([]byte(v.(string)), 1)
		le.PutUint32(b, p)
		le.PutUint32(b[4:], uint32(len(v.(string))))
		return err
	}
	if l, ok := kindOf(t).(*wit.List); ok {
		if _, bytes := root(l.Type).(wit.U8); bytes {
			p, err := m.alloc(v.([]byte), 1)
			le.PutUint32(b, p)
			le.PutUint32(b[4:], uint32(len(v.([]byte))))
			return err
		}
		elems := v.([]any)
		size := uint32(l.Type.Size())
		raw := make([]byte, int(size)*len(elems))
		for i, e := range elems {
			if err := m.encode(l.Type, e, raw[uint32(i)*size:]); err != nil {
				return err
			}
		}
		p, err := m.alloc(raw, uint32(l.Type.Align()))
		le.PutUint32(b, p)
		le.PutUint32(b[4:], uint32(len(elems)))
		return err
	}
	if fs, ok := fields(t); ok {
		var off uint32
		for i, ft := range fs {
			off = align(off, uint32(ft.Align()))
			if err := m.encode(ft, v.([]any)[i], b[off:]); err != nil {
				return err
			}
			off += uint32(ft.Size())
		}
		return nil
	}
	if cs, ok := cases(t); ok {
		x := v.(cv)
		disc, off := variantLayout(cs)
		switch disc {
		case 1:
			b[0] = byte(x.Case)
		case 2:
			le.PutUint16(b, uint16(x.Case))
		default:
			le.PutUint32(b, uint32(x.Case))
		}
		if cs[x.Case] != nil {
			return m.encode(cs[x.Case], x.Val, b[off:])
		}
		return nil
	}
	return fmt.Errorf("encode: unsupported type %s", witType(t))
}

// decode reads a value of type t from b (its bytes in memory), reading its
// strings and lists from guest memory.
func (m mem) decode(t wit.Type, b []byte) (any, error) {
	le := binary.LittleEndian
	switch root(t).(type) {
	case wit.Bool:
		return b[0] != 0, nil
	case wit.U8:
		return b[0], nil
	case wit.S8:
		return int8(b[0]), nil
	case wit.U16:
		return le.Uint16(b), nil
	case wit.S16:
		return int16(le.Uint16(b)), nil
	case wit.U32:
		return le.Uint32(b), nil
	case wit.S32:
		return int32(le.Uint32(b)), nil
	case wit.Char:
		return rune(le.Uint32(b)), nil
	case wit.U64:
		return le.Uint64(b), nil
	case wit.S64:
		return int64(le.Uint64(b)), nil
	case wit.F32:
		return math.Float32frombits(le.Uint32(b)), nil
	case wit.F64:
		return math.Float64frombits(le.Uint64(b)), nil
	case wit.String:
		return m.c.ReadString(le.Uint32(b), le.Uint32(b[4:]))
	}
	if l, ok := kindOf(t).(*wit.List); ok {
		return m.list(l, le.Uint32(b), le.Uint32(b[4:]))
	}
	if fs, ok := fields(t); ok {
		out := make([]any, len(fs))
		var off uint32
		for i, ft := range fs {
			off = align(off, uint32(ft.Align()))
			v, err := m.decode(ft, b[off:])
			if err != nil {
				return nil, err
			}
			out[i] = v
			off += uint32(ft.Size())
		}
		return out, nil
	}
	if cs, ok := cases(t); ok {
		disc, off := variantLayout(cs)
		var d int
		switch disc {
		case 1:
			d = int(b[0])
		case 2:
			d = int(le.Uint16(b))
		default:
			d = int(le.Uint32(b))
		}
		if d >= len(cs) {
			return nil, fmt.Errorf("decode %s: discriminant %d of %d cases", witType(t), d, len(cs))
		}
		if cs[d] == nil {
			return cv{Case: d}, nil
		}
		v, err := m.decode(cs[d], b[off:])
		return cv{Case: d, Val: v}, err
	}
	return nil, fmt.Errorf("decode: unsupported type %s", witType(t))
}

func (m mem) list(l *wit.List, p, n uint32) (any, error) {
	size := uint32(l.Type.Size())
	raw, err := m.c.ReadBytes(p, n*size)
	if err != nil {
		return nil, err
	}
	if _, bytes := root(l.Type).(wit.U8); bytes {
		return raw, nil
	}
	out := make([]any, n)
	for i := range out {
		if out[i], err = m.decode(l.Type, raw[uint32(i)*size:]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// load reads a value of type t stored at p.
func (m mem) load(t wit.Type, p uint32) (any, error) {
	b, err := m.c.ReadBytes(p, uint32(t.Size()))
	if err != nil {
		return nil, err
	}
	return m.decode(t, b)
}

// store writes v of type t at p.
func (m mem) store(t wit.Type, v any, p uint32) error {
	b := make([]byte, t.Size())
	if err := m.encode(t, v, b); err != nil {
		return err
	}
	return m.c.WriteBytes(p, b)
}

// lift reads a value of type t from flat values, returning the rest.
func (m mem) lift(t wit.Type, f []uint64) (any, []uint64, error) {
	n := len(t.Flat())
	rest := f[n:]
	switch root(t).(type) {
	case wit.Bool:
		return uint32(f[0]) != 0, rest, nil
	case wit.U8:
		return uint8(f[0]), rest, nil
	case wit.S8:
		return int8(f[0]), rest, nil
	case wit.U16:
		return uint16(f[0]), rest, nil
	case wit.S16:
		return int16(f[0]), rest, nil
	case wit.U32:
		return uint32(f[0]), rest, nil
	case wit.S32:
		return int32(f[0]), rest, nil
	case wit.Char:
		return rune(f[0]), rest, nil
	case wit.U64:
		return f[0], rest, nil
	case wit.S64:
		return int64(f[0]), rest, nil
	case wit.F32:
		return math.Float32frombits(uint32(f[0])), rest, nil
	case wit.F64:
		return math.Float64frombits(f[0]), rest, nil
	case wit.String:
		s, err := m.c.ReadString(uint32(f[0]), uint32(f[1]))
		return s, rest, err
	}
	switch k := kindOf(t).(type) {
	case *wit.List:
		v, err := m.list(k, uint32(f[0]), uint32(f[1]))
		return v, rest, err
	case *wit.Own, *wit.Borrow:
		return uint32(f[0]), rest, nil
	}
	if fs, ok := fields(t); ok {
		out := make([]any, len(fs))
		g := f
		for i, ft := range fs {
			var err error
			if out[i], g, err = m.lift(ft, g); err != nil {
				return nil, nil, err
			}
		}
		return out, rest, nil
	}
	if cs, ok := cases(t); ok {
		d := int(uint32(f[0]))
		if d >= len(cs) {
			return nil, nil, fmt.Errorf("lift %s: discriminant %d of %d cases", witType(t), d, len(cs))
		}
		if cs[d] == nil {
			return cv{Case: d}, rest, nil
		}
		v, _, err := m.lift(cs[d], f[1:])
		return cv{Case: d, Val: v}, rest, err
	}
	return nil, nil, fmt.Errorf("lift: unsupported type %s", witType(t))
}

// lower writes v of type t as flat values into f (zeroed), returning the
// rest.
func (m mem) lower(t wit.Type, v any, f []uint64) ([]uint64, error) {
	n := len(t.Flat())
	rest := f[n:]
	switch root(t).(type) {
	case wit.Bool:
		if v.(bool) {
			f[0] = 1
		}
		return rest, nil
	case wit.U8:
		f[0] = uint64(v.(uint8))
		return rest, nil
	case wit.S8:
		f[0] = uint64(uint32(int32(v.(int8))))
		return rest, nil
	case wit.U16:
		f[0] = uint64(v.(uint16))
		return rest, nil
	case wit.S16:
		f[0] = uint64(uint32(int32(v.(int16))))
		return rest, nil
	case wit.U32:
		f[0] = uint64(v.(uint32))
		return rest, nil
	case wit.S32:
		f[0] = uint64(uint32(v.(int32)))
		return rest, nil
	case wit.Char:
		f[0] = uint64(uint32(v.(rune)))
		return rest, nil
	case wit.U64:
		f[0] = v.(uint64)
		return rest, nil
	case wit.S64:
		f[0] = uint64(v.(int64))
		return rest, nil
	case wit.F32:
		f[0] = uint64(math.Float32bits(v.(float32)))
		return rest, nil
	case wit.F64:
		f[0] = math.Float64bits(v.(float64))
		return rest, nil
	}
	switch kindOf(t).(type) {
	case *wit.Own, *wit.Borrow:
		f[0] = uint64(v.(uint32))
		return rest, nil
	}
	if _, isList := kindOf(t).(*wit.List); isList || isString(t) {
		var slot [8]byte
		if err := m.encode(t, v, slot[:]); err != nil {
			return nil, err
		}
		f[0] = uint64(binary.LittleEndian.Uint32(slot[:]))
		f[1] = uint64(binary.LittleEndian.Uint32(slot[4:]))
		return rest, nil
	}
	if fs, ok := fields(t); ok {
		g := f
		for i, ft := range fs {
			var err error
			if g, err = m.lower(ft, v.([]any)[i], g); err != nil {
				return nil, err
			}
		}
		return rest, nil
	}
	if cs, ok := cases(t); ok {
		x := v.(cv)
		f[0] = uint64(x.Case)
		if cs[x.Case] != nil {
			if _, err := m.lower(cs[x.Case], x.Val, f[1:]); err != nil {
				return nil, err
			}
		}
		return rest, nil
	}
	return nil, fmt.Errorf("lower: unsupported type %s", witType(t))
}

func isString(t wit.Type) bool {
	_, ok := root(t).(wit.String)
	return ok
}
