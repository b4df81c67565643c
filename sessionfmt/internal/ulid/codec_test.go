package ulid

import "testing"

// TestEncodeDoesNotAllocate: encoding into a fixed buffer, parsing and
// reading the time need no allocation.
func TestEncodeDoesNotAllocate(t *testing.T) {
	id := [Size]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	var buf [EncodedSize]byte
	s := "01ARZ3NDEKTSV4RRFFQ69G5FAV"
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"Encode", func() { Encode(&buf, &id) }},
		{"Parse", func() { _, _ = Parse(s) }},
		{"Ms", func() { _ = Ms(&id) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, tc.f); n != 0 {
				t.Fatalf("%s allocates %v times, want 0", tc.name, n)
			}
		})
	}
}

// TestEncodeParse: Parse inverts Encode over every single-bit ULID, the
// boundaries of each character's bits included.
func TestEncodeParse(t *testing.T) {
	for bit := range 128 {
		var id [Size]byte
		id[bit/8] = 0x80 >> (bit % 8)
		var buf [EncodedSize]byte
		Encode(&buf, &id)
		got, err := Parse(string(buf[:]))
		if err != nil || got != id {
			t.Fatalf("bit %d: Parse(%s) = %x, %v; want %x", bit, buf, got, err, id)
		}
	}
}

var benchBuf [EncodedSize]byte

// BenchmarkEncode encodes into a fixed buffer.
func BenchmarkEncode(b *testing.B) {
	id := [Size]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	b.ReportAllocs()
	for b.Loop() {
		Encode(&benchBuf, &id)
	}
}

var benchID [Size]byte

// BenchmarkParse decodes a valid ULID.
func BenchmarkParse(b *testing.B) {
	s := "01ARZ3NDEKTSV4RRFFQ69G5FAV"
	b.ReportAllocs()
	for b.Loop() {
		benchID, _ = Parse(s)
	}
}
