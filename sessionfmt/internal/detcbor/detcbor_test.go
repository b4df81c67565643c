package detcbor

import (
	"bytes"
	"strings"
	"testing"
)

func TestDecoderLimits(t *testing.T) {
	deep := append(bytes.Repeat([]byte{0x81}, MaxNested+1), 0x00)
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"nesting", deep, "exceeded max nested level"},
		{"tag", []byte{0xc1, 0x00}, "tag"},
		{"duplicate map key", []byte{0xa2, 0x01, 0x00, 0x01, 0x00}, "duplicate map key"},
		{"indefinite length", []byte{0x9f, 0x00, 0xff}, "indefinite-length"},
		{"invalid utf-8", []byte{0x61, 0xff}, "invalid UTF-8"},
		{"length past the input", []byte{0x5a, 0xff, 0xff, 0xff, 0xff, 0x00}, "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			err := Dec().Unmarshal(tt.in, &v)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

func TestEncoderIsDeterministic(t *testing.T) {
	m := map[string]any{"zeta": 1, "a": []any{1.5, "x"}, "mm": map[int]string{3: "c", 1: "a", 2: "b"}}
	first, err := Enc().Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		again, _ := Enc().Marshal(m)
		if !bytes.Equal(again, first) {
			t.Fatal("map encoding depends on iteration order")
		}
	}
	// Core deterministic order: shorter encoded keys first ("a" < "mm" < "zeta").
	if i, j := bytes.Index(first, []byte("a")), bytes.Index(first, []byte("zeta")); i > j {
		t.Fatal("keys not in bytewise order of their encodings")
	}
	if f, _ := Enc().Marshal(1.5); !bytes.Equal(f, []byte{0xf9, 0x3e, 0x00}) {
		t.Fatalf("1.5 encodes as %x, want the shortest float f93e00", f)
	}
}
