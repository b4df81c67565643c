package jsonout_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"unicode/utf8"
)

// Batch operations of the driver: many strings or floats in one request.
const (
	opStrings = 'S'
	opFloats  = 'F'
)

// replies splits a batch reply into its texts; nil stands for an error.
func replies(t *testing.T, reply []byte, n int) [][]byte {
	t.Helper()
	if len(reply) == 0 || reply[0] != 0 {
		t.Fatalf("the driver refused the batch: %q", reply)
	}
	out := make([][]byte, 0, n)
	for rest := reply[1:]; len(rest) > 0; {
		if len(rest) < 4 {
			t.Fatalf("the batch reply ends inside a length after %d texts", len(out))
		}
		size := binary.LittleEndian.Uint32(rest)
		rest = rest[4:]
		if size == math.MaxUint32 {
			out = append(out, nil)
			continue
		}
		if uint32(len(rest)) < size {
			t.Fatalf("the batch reply ends inside text %d", len(out))
		}
		out = append(out, rest[:size])
		rest = rest[size:]
	}
	if len(out) != n {
		t.Fatalf("the driver answered %d of %d", len(out), n)
	}
	return out
}

// TestStringSweep: every code point (in runs of 1024, as escaping is
// decided rune by rune), every string of one and two bytes, and every
// three-byte string that starts with a lead byte and a second byte at an
// edge of the continuation ranges are escaped as Marshal escapes them. The fuzz target explores further; this pins the ground it might
// miss.
func TestStringSweep(t *testing.T) {
	var inputs [][]byte
	for r := rune(0); r <= utf8.MaxRune; r += 1024 {
		var b []byte
		for c := r; c < r+1024; c++ {
			b = utf8.AppendRune(b, c) // surrogates become U+FFFD
		}
		inputs = append(inputs, b)
	}
	for a := range 256 {
		inputs = append(inputs, []byte{byte(a)})
		for b := range 256 {
			inputs = append(inputs, []byte{byte(a), byte(b)})
		}
	}
	// The second bytes at the edges of every lead byte's accepted range
	// (and of U+2028/U+2029's).
	seconds := []byte{0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xa7, 0xa8, 0xa9, 0xaa, 0xbf, 0xc0}
	for a := 0xc0; a < 0x100; a++ {
		for _, b := range seconds {
			for c := range 256 {
				inputs = append(inputs, []byte{byte(a), byte(b), byte(c)})
			}
		}
	}
	var payload []byte
	for _, in := range inputs {
		payload = binary.LittleEndian.AppendUint32(payload, uint32(len(in)))
		payload = append(payload, in...)
	}
	got := replies(t, rustOK(t, opStrings, payload), len(inputs))
	for i, in := range inputs {
		want, _ := json.Marshal(string(in))
		if string(got[i]) != string(want) {
			t.Fatalf("string %q:\nencoding/json %q\nRust module   %q", in, want, got[i])
		}
	}
}

// TestFloat64Sweep: float64 values where formatting goes wrong if it
// goes wrong anywhere are written as Marshal writes them: powers of ten
// and of two with their neighbours (where the shortest digits and the
// plain/exponent switch change), small odd multiples of every power of
// two (where the exact value can lie halfway between two shortest
// candidates: Go takes the even one), short decimals of every exponent
// with their neighbours, integers around 2^53, subnormals, and random
// bits.
func TestFloat64Sweep(t *testing.T) {
	var values []float64
	near := func(v float64) {
		values = append(values, v, -v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1)))
	}
	for e := -325; e <= 308; e++ {
		v, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		near(v)
	}
	for e := -1074; e <= 1023; e++ {
		near(math.Ldexp(1, e))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		digits := make([]byte, 1+rng.IntN(17))
		for i := range digits {
			digits[i] = byte('0' + rng.IntN(10))
		}
		v, err := strconv.ParseFloat(string(digits)+"e"+strconv.Itoa(rng.IntN(650)-340), 64)
		if err == nil {
			near(v)
		}
	}
	for m := 1; m < 1024; m += 2 { // exact ties between shortest candidates
		for e := -1074; e <= 1023; e++ {
			values = append(values, math.Ldexp(float64(m), e))
		}
	}
	for i := range int64(2000) {
		near(float64(1<<53 - 1000 + i))
	}
	for range 200000 {
		values = append(values, math.Float64frombits(rng.Uint64()))
	}
	for i := range uint64(1000) {
		values = append(values, math.Float64frombits(i), math.Float64frombits(1<<52-i))
	}
	values = append(values, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64)
	payload := make([]byte, 0, 8*len(values))
	for _, v := range values {
		payload = binary.LittleEndian.AppendUint64(payload, math.Float64bits(v))
	}
	got := replies(t, rustOK(t, opFloats, payload), len(values))
	for i, v := range values {
		want, err := json.Marshal(v)
		switch {
		case err != nil && got[i] != nil:
			t.Fatalf("float64 %v: encoding/json fails (%v) but the Rust module wrote %q", v, err, got[i])
		case err == nil && string(got[i]) != string(want):
			t.Fatalf("float64 %v (bits %#x):\nencoding/json %s\nRust module   %s", v, math.Float64bits(v), want, got[i])
		}
	}
}

// rustOK sends one batch request and returns the raw reply.
func rustOK(t *testing.T, op byte, payload []byte) []byte {
	t.Helper()
	return driver(t).Ask(t, op, payload)
}
