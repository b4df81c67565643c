package wasmhost

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/tetratelabs/wabin/binary"
	"github.com/tetratelabs/wabin/wasm"

	"github.com/smith-agent/smith/wasmhost/internal/fuel"
)

// TestDecodeHeader checks the header decode sees exactly what a full decode
// sees in the sections validation reads, on the hand-written and the Go
// guest.
func TestDecodeHeader(t *testing.T) {
	for _, tt := range []struct {
		name string
		wasm []byte
	}{
		{name: "wat", wasm: wat(t, "guest")},
		{name: "go", wasm: goGuest(t)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			full, err := binary.DecodeModule(tt.wasm, wasm.CoreFeaturesV2)
			if err != nil {
				t.Fatal(err)
			}
			h, err := decodeHeader(tt.wasm)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.FunctionSection) == 0 {
				t.Fatal("no functions decoded")
			}
			for _, s := range []struct {
				name      string
				got, want any
			}{
				{"types", h.TypeSection, full.TypeSection},
				{"imports", h.ImportSection, full.ImportSection},
				{"functions", h.FunctionSection, full.FunctionSection},
				{"memory", h.MemorySection, full.MemorySection},
				{"exports", h.ExportSection, full.ExportSection},
			} {
				if !reflect.DeepEqual(s.got, s.want) {
					t.Errorf("%s differ from the full decode", s.name)
				}
			}
			if h.CodeSection != nil || h.DataSection != nil {
				t.Error("code or data decoded")
			}
		})
	}
}

// TestDecodeHeaderMalformed checks malformed framing is refused with the
// offending section and offset.
func TestDecodeHeaderMalformed(t *testing.T) {
	head := "\x00asm\x01\x00\x00\x00"
	for _, tt := range []struct {
		name, wasm, want string
	}{
		{name: "short", wasm: "\x00as", want: "invalid magic number"},
		{name: "component", wasm: "\x00asm\x0d\x00\x01\x00", want: "invalid version header"},
		{name: "size past end", wasm: head + "\x0a\x05\x01", want: "section code at offset 8: declares 5 bytes but 1 remain"},
		{name: "size unterminated", wasm: head + "\x0a\xff", want: "section code at offset 8: size"},
		{name: "function count past section", wasm: head + "\x03\x02\x05\x00", want: "section function at offset 8: declares 5 functions in 1 bytes"},
		{name: "function trailing bytes", wasm: head + "\x03\x03\x01\x00\x00", want: "section function at offset 8: 1 trailing bytes"},
		{name: "function index unterminated", wasm: head + "\x03\x02\x01\x80", want: "section function at offset 8: function 0"},
		{name: "bad type section", wasm: head + "\x01\x01\x05", want: "section type"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeHeader([]byte(tt.wasm))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestReadArtifactAllocations checks reading an artifact of declared size
// allocates its buffer once instead of growing (copying) it at EOF.
func TestReadArtifactAllocations(t *testing.T) {
	wasm := goGuest(t)
	allocs := testing.AllocsPerRun(5, func() {
		if _, _, err := readArtifact(Artifact{Name: "go", Reader: bytes.NewReader(wasm), Size: int64(len(wasm))}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 5 {
		t.Fatalf("readArtifact made %v allocations, want at most 5 (the growth copy makes 6)", allocs)
	}
}

// TestProbeFingerprint checks the instrumented cache directory is named
// after the instrumentation's output on the probe module: stable within a
// build, and changed by any change to a charge sequence.
func TestProbeFingerprint(t *testing.T) {
	fp := probeFingerprint()
	if fp != probeFingerprint() || len(fp) != 16 {
		t.Fatalf("fingerprint %q is not stable", fp)
	}
	if !strings.HasSuffix(instrumentedDir(), "-"+fp) {
		t.Fatalf("instrumentedDir() %q does not carry the fingerprint %q", instrumentedDir(), fp)
	}
	m := probeModule()
	if n := fuel.MergeData(m); n != 1 {
		t.Errorf("the probe's two data segments became %d, want 1 (merged)", n)
	}
	st, err := fuel.Instrument(m)
	if err != nil {
		t.Fatal(err)
	}
	if st != (fuel.Stats{Functions: 1, LoopHeaders: 1, Grows: 1}) {
		t.Fatalf("probe stats %+v, want one charged entry, loop header and grow", st)
	}
}
