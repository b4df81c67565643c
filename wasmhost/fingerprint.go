package wasmhost

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/tetratelabs/wabin/wasm"
)

// InstrumentationVersion names the fuel instrumentation this build applies
// (Instrument, and Compile for an artifact not instrumented yet): the
// rewrite's protocol version and a fingerprint of its output on a probe
// module, so two builds whose rewrite differs in any byte have different
// versions. An artifact instrumented ahead of time carries the version it
// was instrumented with (Artifact.Instrumented), and a host of another
// version refuses it. It is computed on first use (not at package
// initialization, which every process start would pay) and is safe for
// concurrent use.
func InstrumentationVersion() string { return instrumentationVersion() }

var instrumentationVersion = sync.OnceValue(func() string { return "fuel-v4-" + probeFingerprint() })

// instrumentedDir is the directory holding instrumented modules next to
// wazero's compiled code, so a warm start skips the fuel rewrite as wazero
// skips compilation. Its name carries the file format version and the
// InstrumentationVersion: a build whose rewrite differs writes and reads
// another directory, so it never runs modules instrumented for a different
// host protocol.
func instrumentedDir() string { return "wasmhost-" + InstrumentationVersion() }

// probeFingerprint instruments a small module exercising every rewrite (a
// charged function entry, a loop header, a call, return, memory.grow and
// two mergeable data segments) and returns the first 8 bytes of the
// result's SHA-256 in hex.
func probeFingerprint() string {
	out, err := instrumentModule(probeModule())
	if err != nil {
		panic("wasmhost: the instrumentation refuses its own probe module: " + err.Error())
	}
	sum := sha256.Sum256(out)
	return hex.EncodeToString(sum[:8])
}

// probeModule is the uninstrumented probe.
func probeModule() *wasm.Module {
	body := []byte{
		wasm.OpcodeLoop, 0x40, wasm.OpcodeCall, 0, wasm.OpcodeEnd,
		wasm.OpcodeI32Const, 1, wasm.OpcodeMemoryGrow, 0, wasm.OpcodeDrop,
		wasm.OpcodeReturn, wasm.OpcodeEnd,
	}
	at := func(off byte) *wasm.ConstantExpression {
		return &wasm.ConstantExpression{Opcode: wasm.OpcodeI32Const, Data: []byte{off}}
	}
	return &wasm.Module{
		TypeSection:     []*wasm.FunctionType{{}},
		FunctionSection: []wasm.Index{0},
		MemorySection:   &wasm.Memory{Min: 1, Max: 1, IsMaxEncoded: true},
		CodeSection:     []*wasm.Code{{Body: body}},
		DataSection: []*wasm.DataSegment{
			{OffsetExpression: at(8), Init: []byte("a")},
			{OffsetExpression: at(12), Init: []byte("b")},
		},
	}
}
