package index

import (
	"bytes"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	in := []Entry{
		{Path: "b/c", Mode: 0o100755, Size: 3, MTime: 5, CTime: 6, Ino: 7, ID: [20]byte{1}},
		{Path: "a", Mode: 0o120000, Size: 1, MTime: -1, ID: [20]byte{2}},
	}
	b, err := Encode("/w", in)
	if err != nil {
		t.Fatal(err)
	}
	wt, out, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if wt != "/w" || len(out) != 2 || out[0].Path != "a" || out[1] != in[1] {
		t.Fatalf("Parse = %q, %+v", wt, out)
	}
}

func TestParseRejects(t *testing.T) {
	good, _ := Encode("/w", []Entry{{Path: "a"}})
	flip := bytes.Clone(good)
	flip[len(flip)-1] ^= 1
	dup, _ := Encode("/w", []Entry{{Path: "a"}, {Path: "b"}})
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{name: "short", in: []byte("SMITH"), want: "shorter"},
		{name: "checksum", in: flip, want: "checksum"},
		{name: "empty", in: nil, want: "shorter"},
		{name: "good-is-accepted", in: dup, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse(tt.in)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse = %v; want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := Encode("/w", []Entry{{Path: "a"}, {Path: "a"}}); err == nil {
		t.Fatal("Encode accepted a repeated path")
	}
}

func FuzzParse(f *testing.F) {
	good, _ := Encode("/work", []Entry{{Path: "a", Mode: 0o100644, Size: 1}, {Path: "d/e", ID: [20]byte{9}}})
	f.Add(good)
	empty, _ := Encode("", nil)
	f.Add(empty)
	f.Fuzz(func(t *testing.T, b []byte) {
		wt, entries, err := Parse(b)
		if err != nil {
			return
		}
		again, err := Encode(wt, entries)
		if err != nil {
			t.Fatalf("Encode of a parsed index: %v", err)
		}
		if !bytes.Equal(again, b) {
			t.Fatal("index does not round-trip")
		}
	})
}
