package secret

import (
	"strings"
	"testing"
)

// TestStreamSplits: however a text is cut into pieces, what a Stream
// passes on adds up to the text's redaction, and text that cannot begin
// a secret is passed on at once.
func TestStreamSplits(t *testing.T) {
	s := splitSet(t)
	texts := splitTexts
	run := func(pieces ...string) string {
		st := s.Stream()
		var b strings.Builder
		for _, p := range pieces {
			b.Write(st.Next([]byte(p)))
		}
		b.Write(st.Flush())
		return b.String()
	}
	for _, tt := range texts {
		want, _ := s.Redact([]byte(tt.in))
		t.Run(tt.name, func(t *testing.T) {
			for i := 0; i <= len(tt.in); i++ {
				if got := run(tt.in[:i], tt.in[i:]); got != string(want) {
					t.Fatalf("split at %d: %q, want %q", i, got, want)
				}
				for j := i; j <= len(tt.in); j += 7 {
					if got := run(tt.in[:i], tt.in[i:j], tt.in[j:]); got != string(want) {
						t.Fatalf("split at %d, %d: %q, want %q", i, j, got, want)
					}
				}
			}
			if got := run(strings.Split(tt.in, "")...); got != string(want) {
				t.Fatalf("byte by byte: %q, want %q", got, want)
			}
		})
	}
	st := s.Stream()
	if got := string(st.Next([]byte("plain words "))); got != "plain words " {
		t.Errorf("text that cannot begin a secret was kept back: passed on %q", got)
	}
	if got := string(st.Next([]byte("then abc"))); got != "then " {
		t.Errorf("passed on %q; want all but the tail that may begin a secret", got)
	}
}

// TestStreamEmptySet: with no secret, Next passes everything on.
func TestStreamEmptySet(t *testing.T) {
	var s Set
	st := s.Stream()
	if got := string(st.Next([]byte("abc"))); got != "abc" || st.Flush() != nil {
		t.Fatalf("passed on %q", got)
	}
}
