package fuel

import (
	"bytes"

	"github.com/tetratelabs/wabin/leb128"
	"github.com/tetratelabs/wabin/wasm"
)

// MaxDataGap is the largest run of never-written bytes MergeData fills with
// zeros to join two written runs.
const MaxDataGap = 4096

// maxDataImage bounds the memory image MergeData builds.
const maxDataImage = 64 << 20

// MergeData replaces the data section by an equivalent one with few
// segments and returns how many remain. The Go linker emits tens of
// thousands of small, partly overlapping segments (43,430 for a 4 MB
// plugin), and wazero evaluates and copies each one at every instantiation.
//
// MergeData applies the segments in order to an image of the initial
// memory, then emits its written runs, joining runs separated by at most
// MaxDataGap unwritten bytes (zeros, as fresh memory is). It changes nothing
// unless every segment is active with an i32.const offset and fits in the
// initial memory (otherwise instantiation must fail as before), and the
// module has no data count section (which memory.init and data.drop, the
// only instructions that name segments, require).
func MergeData(m *wasm.Module) int {
	segs := m.DataSection
	if len(segs) < 2 || m.DataCountSection != nil || m.MemorySection == nil {
		return len(segs)
	}
	memSize := uint64(m.MemorySection.Min) * 65536
	offsets := make([]uint64, len(segs))
	lo, hi := uint64(1<<63), uint64(0)
	for i, s := range segs {
		e := s.OffsetExpression
		if e == nil || e.Opcode != wasm.OpcodeI32Const {
			return len(segs)
		}
		v, _, err := leb128.DecodeInt32(bytes.NewReader(e.Data))
		if err != nil {
			return len(segs)
		}
		off := uint64(uint32(v))
		end := off + uint64(len(s.Init))
		if end > memSize {
			return len(segs)
		}
		offsets[i] = off
		lo, hi = min(lo, off), max(hi, end)
	}
	if hi <= lo || hi-lo > maxDataImage {
		return len(segs)
	}
	image := make([]byte, hi-lo)
	written := make([]bool, hi-lo)
	for i, s := range segs {
		at := offsets[i] - lo
		copy(image[at:], s.Init)
		for j := range s.Init {
			written[at+uint64(j)] = true
		}
	}
	var out []*wasm.DataSegment
	start, end := 0, 0 // the segment being built covers image[start:end]
	for i := 0; i < len(image); {
		if !written[i] {
			i++
			continue
		}
		j := i
		for j < len(image) && written[j] {
			j++
		}
		if len(out) == 0 || i-end > MaxDataGap {
			out = append(out, &wasm.DataSegment{OffsetExpression: &wasm.ConstantExpression{
				Opcode: wasm.OpcodeI32Const, Data: leb128.EncodeInt32(int32(uint32(lo + uint64(i)))),
			}})
			start = i
		}
		end = j
		out[len(out)-1].Init = image[start:end]
		i = j
	}
	m.DataSection = out
	return len(out)
}
