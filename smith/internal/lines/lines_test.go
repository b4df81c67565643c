package lines

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestNext(t *testing.T) {
	type line struct {
		text string
		long bool
	}
	tests := []struct {
		name  string
		input string
		max   int
		want  []line
	}{
		{name: "empty", input: "", max: 8},
		{name: "lines", input: "a\nbc\n\n", max: 8, want: []line{{"a", false}, {"bc", false}, {"", false}}},
		{name: "last line without LF", input: "a\nb", max: 8, want: []line{{"a", false}, {"b", false}}},
		{name: "at the bound", input: "12345678\nx\n", max: 8, want: []line{{"12345678", false}, {"x", false}}},
		{name: "over the bound", input: "123456789\nx\n", max: 8, want: []line{{"", true}, {"x", false}}},
		{name: "over the bound at the end", input: "123456789", max: 8, want: []line{{"", true}}},
		{name: "longer than the buffer", input: strings.Repeat("y", 200<<10) + "\nz\n", max: 100 << 10, want: []line{{"", true}, {"z", false}}},
		{name: "long but allowed", input: strings.Repeat("y", 200<<10) + "\n", max: 300 << 10, want: []line{{strings.Repeat("y", 200<<10), false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr := NewReader(strings.NewReader(tt.input), tt.max)
			var got []line
			for {
				l, long, err := lr.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, line{string(l), long})
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d lines, want %d", len(got), len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("line %d: got %.20q long=%v, want %.20q long=%v", i, got[i].text, got[i].long, tt.want[i].text, tt.want[i].long)
				}
			}
		})
	}
}
