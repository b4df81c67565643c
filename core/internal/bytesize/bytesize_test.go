package bytesize

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		want     int64
		err      string
	}{
		{name: "KiB", in: "512KiB", want: 512 << 10},
		{name: "MiB with space", in: " 64 MiB", want: 64 << 20},
		{name: "GiB", in: "1GiB", want: 1 << 30},
		{name: "no unit", in: "64", err: "has no unit"},
		{name: "decimal unit", in: "64MB", err: "has no unit"},
		{name: "zero", in: "0MiB", err: "positive whole number"},
		{name: "fraction", in: "1.5GiB", err: "positive whole number"},
		{name: "overflow", in: "9999999999999GiB", err: "positive whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Parse(%q) = %d, %v; want an error saying %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Parse(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
			if back, err := Parse(Format(got)); err != nil || back != got {
				t.Fatalf("Format(%d) = %q reads back as %d, %v", got, Format(got), back, err)
			}
		})
	}
	if got := Format(64 << 10); got != "64KiB" {
		t.Errorf("Format(64 KiB) = %q", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"512KiB", "64MiB", "1GiB", "", "MiB", "-1KiB", "1 GiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		if err == nil && n <= 0 {
			t.Fatalf("Parse(%q) = %d without an error", s, n)
		}
	})
}
