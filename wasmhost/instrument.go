package wasmhost

import (
	"errors"

	"github.com/tetratelabs/wabin/binary"
	"github.com/tetratelabs/wabin/wasm"

	"github.com/smith-agent/smith/wasmhost/internal/fuel"
)

// Instrument returns module rewritten for fuel metering exactly as Compile
// rewrites an artifact that is not instrumented yet: same input, same
// bytes, for a given InstrumentationVersion. A build tool uses it to
// instrument system plugins ahead of time and ships the result with
// Artifact.Instrumented set, so no start pays for the rewrite or for
// reading its cached result. It refuses a module that is not a valid core
// module or that uses features the rewrite does not support (relaxed SIMD,
// threads, exceptions), naming the problem.
func Instrument(module []byte) ([]byte, error) {
	out, err := instrument(module)
	if err != nil {
		return nil, errors.New("wasmhost: instrument: " + err.Error())
	}
	return out, nil
}

// instrumentError says which step of instrument failed.
type instrumentError struct {
	decode bool // the module does not decode
	err    error
}

func (e *instrumentError) Error() string { return e.err.Error() }

// instrument decodes raw and instruments it (instrumentModule).
func instrument(raw []byte) ([]byte, error) {
	m, err := binary.DecodeModule(raw, wasm.CoreFeaturesV2)
	if err != nil {
		return nil, &instrumentError{decode: true, err: err}
	}
	return instrumentModule(m)
}

// instrumentModule merges m's data segments, inserts the fuel charges and
// encodes the result; the probe behind InstrumentationVersion goes through
// it too, so the version fingerprints exactly this pipeline.
func instrumentModule(m *wasm.Module) ([]byte, error) {
	fuel.MergeData(m)
	if _, err := fuel.Instrument(m); err != nil {
		return nil, &instrumentError{err: err}
	}
	return binary.EncodeModule(m), nil
}
