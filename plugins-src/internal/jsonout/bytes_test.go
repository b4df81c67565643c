package jsonout_test

import (
	"encoding/json"
	"testing"
)

// opBytes writes a []byte through Writer::bytes (testdata/driver.rs).
const opBytes = 'b'

// TestBytes: a []byte of every length up to 70 (each remainder of three
// with bytes in every position of the alphabet) and each single byte is
// written as Marshal writes a non-nil []byte.
func TestBytes(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
	}{
		{"empty", []byte{}},
		{"high bytes", []byte{0xff, 0xfe, 0xfd, 0xfc}},
	}
	var long []byte
	for n := range 70 {
		cases = append(cases, struct {
			name string
			b    []byte
		}{"length prefix", append([]byte{}, long...)})
		long = append(long, byte(n*37+11))
	}
	for c := range 256 {
		cases = append(cases, struct {
			name string
			b    []byte
		}{"single byte", []byte{byte(c)}})
	}
	for _, c := range cases {
		want, err := json.Marshal(c.b)
		if err != nil {
			t.Fatal(err)
		}
		got, gotErr := rust(t, opBytes, c.b)
		if gotErr != "" || string(got) != string(want) {
			t.Fatalf("%s %x: json.Marshal writes %s, Writer::bytes %s (error %q)", c.name, c.b, want, got, gotErr)
		}
	}
}
