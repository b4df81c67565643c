package fuel

import (
	"errors"
	"fmt"

	"github.com/tetratelabs/wabin/leb128"
	"github.com/tetratelabs/wabin/wasm"
)

var errTruncated = errors.New("truncated immediate")

// rewriter copies one function body, inserting the charge sequence and
// rewriting function indices.
type rewriter struct {
	remap  func(uint32) uint32
	charge []byte
	enter  []byte
	leave  []byte
	grow   uint32
}

// body rewrites one function body. The original body is wrapped in a block
// of the function's result type bt, so every way out of the function —
// falling off the end, a branch to the function's label, return (rewritten
// as a branch to the wrapper) — passes the depth decrement after it.
//
// A leaf function — no call of any kind — cannot recurse, and between two
// charges of its loop headers it runs a bounded number of instructions, so
// its entry is left uncharged and its body unwrapped; its loop headers are
// charged and its ref.func and memory.grow rewritten as in any function.
func (r *rewriter) body(in []byte, bt []byte, st *Stats) ([]byte, error) {
	leaf, err := isLeaf(in)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(in)+len(r.charge)*4+len(r.enter)+len(r.leave)+16)
	if leaf {
		st.Leaves++
	} else {
		st.Functions++
		out = append(out, r.charge...)
		out = append(out, r.enter...)
		out = append(out, wasm.OpcodeBlock)
		out = append(out, bt...)
	}
	nesting := 0 // open blocks inside the wrapper
	i := 0
	for i < len(in) {
		op := in[i]
		start := i
		i++
		var err error
		switch {
		case op == wasm.OpcodeBlock || op == wasm.OpcodeIf || op == wasm.OpcodeLoop:
			i, err = skipBlockType(in, i)
			if err != nil {
				return nil, at(start, op, err)
			}
			nesting++
			out = append(out, in[start:i]...)
			if op == wasm.OpcodeLoop {
				out = append(out, r.charge...)
				st.LoopHeaders++
			}
			continue
		case op == wasm.OpcodeEnd:
			if nesting == 0 {
				if i != len(in) {
					return nil, at(start, op, errors.New("code after the function's final end"))
				}
				if !leaf {
					out = append(out, wasm.OpcodeEnd)
					out = append(out, r.leave...)
				}
				out = append(out, wasm.OpcodeEnd)
				return out, nil
			}
			nesting--
			out = append(out, op)
			continue
		case op == wasm.OpcodeReturn:
			if leaf {
				out = append(out, op)
				continue
			}
			out = append(out, wasm.OpcodeBr)
			out = append(out, leb128.EncodeUint32(uint32(nesting))...)
			continue
		case op == opReturnCall || op == opReturnCallIndirect:
			out = append(out, r.leave...)
			if op == opReturnCallIndirect {
				i, err = skipU32s(in, i, 2)
				if err != nil {
					return nil, at(start, op, err)
				}
				out = append(out, in[start:i]...)
				continue
			}
			idx, n, err := readU32(in, i)
			if err != nil {
				return nil, at(start, op, err)
			}
			i += n
			out = append(out, op)
			out = append(out, leb128.EncodeUint32(r.remap(idx))...)
			continue
		case op == wasm.OpcodeCall || op == wasm.OpcodeRefFunc:
			idx, n, err := readU32(in, i)
			if err != nil {
				return nil, at(start, op, err)
			}
			i += n
			out = append(out, op)
			out = append(out, leb128.EncodeUint32(r.remap(idx))...)
			continue
		case op == wasm.OpcodeMemoryGrow:
			_, n, err := readU32(in, i) // memory index
			if err != nil {
				return nil, at(start, op, err)
			}
			i += n
			out = append(out, wasm.OpcodeCall)
			out = append(out, leb128.EncodeUint32(r.grow)...)
			st.Grows++
			continue
		}
		i, err = skipImmediates(in, op, i)
		if err != nil {
			return nil, at(start, op, err)
		}
		out = append(out, in[start:i]...)
	}
	return nil, errors.New("function body has no final end")
}

// isLeaf reports whether a body has no call of any kind (loops allowed).
func isLeaf(in []byte) (bool, error) {
	for i := 0; i < len(in); {
		op := in[i]
		start := i
		i++
		var err error
		switch op {
		case wasm.OpcodeCall, wasm.OpcodeCallIndirect, opReturnCall, opReturnCallIndirect:
			return false, nil
		case wasm.OpcodeBlock, wasm.OpcodeIf, wasm.OpcodeLoop:
			i, err = skipBlockType(in, i)
		case wasm.OpcodeRefFunc, wasm.OpcodeMemoryGrow:
			i, err = skipU32s(in, i, 1)
		case wasm.OpcodeEnd, wasm.OpcodeReturn:
		default:
			i, err = skipImmediates(in, op, i)
		}
		if err != nil {
			return false, at(start, op, err)
		}
	}
	return true, nil
}

func at(offset int, op byte, err error) error {
	return fmt.Errorf("opcode 0x%02x at body offset %d: %w", op, offset, err)
}

// skipImmediates returns the offset after the immediates of op, whose
// immediates start at i. Opcodes with rewritten immediates are handled by the
// caller.
func skipImmediates(in []byte, op byte, i int) (int, error) {
	switch {
	case op == wasm.OpcodeUnreachable, op == wasm.OpcodeNop, op == wasm.OpcodeElse,
		op == wasm.OpcodeDrop, op == wasm.OpcodeSelect:
		return i, nil
	case op == wasm.OpcodeBr, op == wasm.OpcodeBrIf,
		op >= wasm.OpcodeLocalGet && op <= wasm.OpcodeGlobalSet,
		op == wasm.OpcodeTableGet, op == wasm.OpcodeTableSet,
		op == wasm.OpcodeMemorySize:
		return skipU32s(in, i, 1)
	case op == wasm.OpcodeBrTable:
		n, k, err := readU32(in, i)
		if err != nil {
			return 0, err
		}
		if uint64(n) > uint64(len(in)) {
			return 0, errTruncated
		}
		return skipU32s(in, i+k, int(n)+1)
	case op == wasm.OpcodeCallIndirect:
		return skipU32s(in, i, 2)
	case op == wasm.OpcodeTypedSelect:
		n, k, err := readU32(in, i)
		if err != nil {
			return 0, err
		}
		i += k
		if uint64(i)+uint64(n) > uint64(len(in)) {
			return 0, errTruncated
		}
		return i + int(n), nil
	case op >= wasm.OpcodeI32Load && op <= wasm.OpcodeI64Store32:
		return skipU32s(in, i, 2) // align, offset
	case op == wasm.OpcodeI32Const, op == wasm.OpcodeI64Const:
		return skipLEB(in, i)
	case op == wasm.OpcodeF32Const:
		return fixed(in, i, 4)
	case op == wasm.OpcodeF64Const:
		return fixed(in, i, 8)
	case op >= wasm.OpcodeI32Eqz && op <= wasm.OpcodeI64Extend32S:
		return i, nil
	case op == wasm.OpcodeRefNull:
		return fixed(in, i, 1)
	case op == wasm.OpcodeRefIsNull:
		return i, nil
	case op == wasm.OpcodeMiscPrefix:
		sub, k, err := readU32(in, i)
		if err != nil {
			return 0, err
		}
		i += k
		switch {
		case sub <= uint32(wasm.OpcodeMiscI64TruncSatF64U):
			return i, nil
		case sub == uint32(wasm.OpcodeMiscMemoryInit), sub == uint32(wasm.OpcodeMiscMemoryCopy),
			sub == uint32(wasm.OpcodeMiscTableInit), sub == uint32(wasm.OpcodeMiscTableCopy):
			return skipU32s(in, i, 2)
		case sub == uint32(wasm.OpcodeMiscDataDrop), sub == uint32(wasm.OpcodeMiscMemoryFill),
			sub == uint32(wasm.OpcodeMiscElemDrop), sub == uint32(wasm.OpcodeMiscTableGrow),
			sub == uint32(wasm.OpcodeMiscTableSize), sub == uint32(wasm.OpcodeMiscTableFill):
			return skipU32s(in, i, 1)
		}
		return 0, fmt.Errorf("unsupported 0xfc sub-opcode %d", sub)
	case op == wasm.OpcodeVecPrefix:
		sub, k, err := readU32(in, i)
		if err != nil {
			return 0, err
		}
		return skipVec(in, sub, i+k)
	}
	return 0, errors.New("unsupported opcode (threads, exceptions and GC proposals are not supported)")
}

// skipVec returns the offset after the immediates of the SIMD instruction
// 0xfd sub (WebAssembly 2.0's fixed-width SIMD, opcodes 0x00–0xff), whose
// immediates start at i. The relaxed-SIMD proposal (0x100 and up) is
// refused.
func skipVec(in []byte, sub uint32, i int) (int, error) {
	switch {
	case sub <= 0x0b, sub == 0x5c, sub == 0x5d: // loads, splat and zero loads, v128.store
		return skipU32s(in, i, 2) // align, offset
	case sub == 0x0c, sub == 0x0d: // v128.const, i8x16.shuffle
		return fixed(in, i, 16)
	case sub >= 0x15 && sub <= 0x22: // extract_lane, replace_lane
		return fixed(in, i, 1)
	case sub >= 0x54 && sub <= 0x5b: // load_lane, store_lane
		i, err := skipU32s(in, i, 2)
		if err != nil {
			return 0, err
		}
		return fixed(in, i, 1)
	case sub <= 0xff:
		return i, nil
	}
	return 0, fmt.Errorf("unsupported 0xfd sub-opcode %#x (relaxed SIMD is not supported)", sub)
}

func skipBlockType(in []byte, i int) (int, error) {
	if i >= len(in) {
		return 0, errTruncated
	}
	switch in[i] {
	case 0x40, 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
		return i + 1, nil
	}
	return skipLEB(in, i) // s33 type index
}

func skipU32s(in []byte, i, n int) (int, error) {
	for ; n > 0; n-- {
		_, k, err := readU32(in, i)
		if err != nil {
			return 0, err
		}
		i += k
	}
	return i, nil
}

// skipLEB skips one LEB128 number of at most 10 bytes.
func skipLEB(in []byte, i int) (int, error) {
	for k := 0; k < 10; k++ {
		if i+k >= len(in) {
			return 0, errTruncated
		}
		if in[i+k]&0x80 == 0 {
			return i + k + 1, nil
		}
	}
	return 0, errors.New("LEB128 number longer than 10 bytes")
}

func fixed(in []byte, i, n int) (int, error) {
	if i+n > len(in) {
		return 0, errTruncated
	}
	return i + n, nil
}

// readU32 decodes an unsigned LEB128 u32 at in[i:], returning the value and
// its length in bytes.
func readU32(in []byte, i int) (uint32, int, error) {
	var v uint32
	for k := 0; k < 5; k++ {
		if i+k >= len(in) {
			return 0, 0, errTruncated
		}
		b := in[i+k]
		if k == 4 && b&0xf0 != 0 {
			return 0, 0, errors.New("LEB128 u32 overflows 32 bits")
		}
		v |= uint32(b&0x7f) << (7 * k)
		if b&0x80 == 0 {
			return v, k + 1, nil
		}
	}
	return 0, 0, errors.New("LEB128 u32 longer than 5 bytes")
}

// The tail-call proposal's opcodes, which wabin does not name.
const (
	opReturnCall         = 0x12
	opReturnCallIndirect = 0x13
)
