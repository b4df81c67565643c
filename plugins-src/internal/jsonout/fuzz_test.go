package jsonout_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"testing"
)

// Each target starts the driver before f.Fuzz: a fuzz worker then builds
// it before it takes inputs, instead of during its first one, which the
// fuzzing engine would call hung after 10 s of a loaded machine's rustc.

// FuzzString: a Go string of arbitrary bytes is escaped as Marshal
// escapes it.
func FuzzString(f *testing.F) {
	driver(f)
	f.Fuzz(func(t *testing.T, s []byte) {
		want, err := json.Marshal(string(s))
		got, gotErr := rust(t, opString, s)
		same(t, strconv.Quote(string(s)), want, err, got, gotErr)
	})
}

// FuzzFloat64: a float64 of arbitrary bits is written as Marshal writes
// it; NaN and ±Inf are errors in both. The same bits also read as a
// 48-bit integer times a power of two (the top 16 bits), values with short
// exact expansions that random bits rarely give (TestFloat64Sweep covers
// the ties among them systematically).
func FuzzFloat64(f *testing.F) {
	driver(f)
	f.Fuzz(func(t *testing.T, bits uint64) {
		scaled := math.Ldexp(float64(bits&(1<<48-1)), int(int16(bits>>48))%1100)
		for _, v := range []float64{math.Float64frombits(bits), scaled} {
			want, err := json.Marshal(v)
			if (err != nil) != (math.IsNaN(v) || math.IsInf(v, 0)) {
				t.Fatalf("encoding/json on %v: %v (this test assumes only NaN and ±Inf fail)", v, err)
			}
			got, gotErr := rust(t, opFloat, binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
			same(t, strconv.FormatFloat(v, 'g', -1, 64), want, err, got, gotErr)
		}
	})
}

// FuzzRawMessage: a non-nil json.RawMessage of arbitrary bytes is
// compacted as Marshal compacts it, and refused exactly when Marshal
// refuses it, with Marshal's and Unmarshal's error texts
// (marshal_error_text, syntax_error_text).
func FuzzRawMessage(f *testing.F) {
	driver(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		want, err := json.Marshal(json.RawMessage(append([]byte{}, raw...)))
		got, gotErr := rust(t, opRaw, raw)
		same(t, strconv.Quote(string(raw)), want, err, got, gotErr)
		sameErrorText(t, raw)
	})
}

// FuzzValue: a value encoding/json decodes from arbitrary JSON (nested
// map[string]any, []any, string, float64, bool, nil) is written through
// the Writer as Marshal writes it, map keys sorted by the module.
func FuzzValue(f *testing.F) {
	driver(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		want, err := json.Marshal(v)
		got, gotErr := rust(t, opValue, encode(nil, reflect.ValueOf(v)))
		same(t, strconv.Quote(string(data)), want, err, got, gotErr)
	})
}
