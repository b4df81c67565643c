package canon

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	tab := NewTable[string]("counter")
	a, b := tab.Add("a"), tab.Add("b")
	if a != 1 || b != 2 {
		t.Fatalf("handles = %d, %d; want 1, 2", a, b)
	}
	if v, err := tab.Remove(a); err != nil || v != "a" {
		t.Fatalf("Remove(%d) = %q, %v; want a", a, v, err)
	}
	if c := tab.Add("c"); c != a {
		t.Errorf("handle after Remove = %d; want reused %d", c, a)
	}
	tests := []struct {
		name   string
		handle uint32
	}{
		{name: "zero", handle: 0},
		{name: "beyond", handle: 99},
		{name: "max", handle: ^uint32(0)},
		{name: "removed", handle: func() uint32 { h := tab.Add("x"); tab.Remove(h); return h }()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tab.Get(tt.handle)
			if err == nil || !strings.Contains(err.Error(), "counter handle") {
				t.Errorf("Get(%d) error = %v; want one naming the counter handle", tt.handle, err)
			}
		})
	}
	if tab.Len() != 2 {
		t.Errorf("Len = %d; want 2", tab.Len())
	}
}

func TestChar(t *testing.T) {
	tests := []struct {
		name string
		in   uint32
		ok   bool
	}{
		{name: "ascii", in: 'a', ok: true},
		{name: "max", in: 0x10FFFF, ok: true},
		{name: "surrogate", in: 0xD800},
		{name: "beyond", in: 0x110000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r rune
			err := Char(tt.in, &r)
			if (err == nil) != tt.ok || tt.ok && r != rune(tt.in) {
				t.Errorf("Char(%#x) = %q, %v; want ok=%v", tt.in, r, err, tt.ok)
			}
		})
	}
}

// TestLiftListBounds checks the checks made before guest memory is touched
// (the nil Call would panic if it were).
func TestLiftListBounds(t *testing.T) {
	tests := []struct {
		name        string
		ptr, n      uint64
		size, align int
		want        string
	}{
		{name: "misaligned", ptr: 6, n: 1, size: 8, align: 4, want: "not aligned to 4 bytes"},
		{name: "wraps-32-bits", ptr: 8, n: 0xFFFFFFFF, size: 16, align: 8, want: "beyond the 4 GiB"},
		{name: "empty", ptr: 4, n: 0, size: 8, align: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := LiftList(nil, tt.ptr, tt.n, tt.size, tt.align)
			if tt.want == "" {
				if err != nil || b != nil {
					t.Errorf("LiftList = %v, %v; want nothing", b, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LiftList error = %v; want %q", err, tt.want)
			}
		})
	}
	if _, err := ReadRecord(nil, 3, 16, 8); err == nil || !strings.Contains(err.Error(), "not aligned to 8") {
		t.Errorf("ReadRecord misaligned error = %v", err)
	}
}

func TestBadCase(t *testing.T) {
	err := BadCase("shape", 9, 5)
	if !strings.Contains(err.Error(), "shape: discriminant 9 is not below its 5 cases") {
		t.Errorf("BadCase = %v", err)
	}
}

func TestWriteRecordAlignment(t *testing.T) {
	if err := WriteRecord(nil, 6, 4, []byte{1}); err == nil || !strings.Contains(err.Error(), "return area 0x6 is not aligned to 4 bytes") {
		t.Errorf("WriteRecord misaligned error = %v", err)
	}
}

func TestValidUTF8(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "valid", in: "héllo, 世界", want: "héllo, 世界"},
		{name: "one-byte", in: "a\xffb", want: "a\uFFFDb"},
		{name: "each-byte", in: "\x8e\x8e", want: "\uFFFD\uFFFD"},
		{name: "truncated-sequence", in: "x\xe4\xb8", want: "x\uFFFD\uFFFD"},
		{name: "surrogate", in: "\xed\xa0\x80", want: "\uFFFD\uFFFD\uFFFD"},
		{name: "replacement-kept", in: "\uFFFD\xff", want: "\uFFFD\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ValidUTF8(tt.in)
			if got != tt.want {
				t.Errorf("ValidUTF8(%q) = %q; want %q", tt.in, got, tt.want)
			}
			// The same as a JSON round trip, which the Go tools plugin's
			// output went through.
			j, _ := json.Marshal(tt.in)
			var back string
			if err := json.Unmarshal(j, &back); err != nil || back != got {
				t.Errorf("encoding/json round-trips %q to %q; ValidUTF8 gave %q", tt.in, back, got)
			}
		})
	}
}
