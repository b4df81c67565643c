package hostproc

import "testing"

func TestTailRing(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"fits", []string{"ab", "c"}, "abc"},
		{"wraps", []string{"abc", "de", "fgh"}, "efgh"},
		{"one big write", []string{"a", "0123456789"}, "6789"},
		{"many small", []string{"1", "2", "3", "4", "5", "6"}, "3456"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := &tail{max: 4}
			total := 0
			for _, w := range tt.writes {
				n, err := tl.Write([]byte(w))
				if err != nil || n != len(w) {
					t.Fatalf("write %q = %d, %v", w, n, err)
				}
				total += n
			}
			got, n := tl.bytes()
			if string(got) != tt.want || n != int64(total) {
				t.Fatalf("got %q (%d)", got, n)
			}
		})
	}
}
