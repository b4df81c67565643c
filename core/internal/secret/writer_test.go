package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// splitSet is the Set the split tests redact with: two long secrets and
// two that overlap.
func splitSet(t *testing.T) *Set {
	return newTestSet(t,
		Secret{Name: "API_KEY", Value: apiKey},
		Secret{Name: "DB_PASSWORD", Value: password},
		Secret{Name: "SHORT", Value: "abcdefgh"},
		Secret{Name: "LONG", Value: "abcdefgh-and-more"},
	)
}

// splitTexts are the texts the split tests cut into pieces.
var splitTexts = []struct{ name, in string }{
	{name: "plaintext", in: "export KEY=" + apiKey + "\n"},
	{name: "only the secret", in: apiKey},
	{name: "base64", in: "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("admin:"+password)) + "\n"},
	{name: "hex", in: "dump: " + hex.EncodeToString([]byte(apiKey)) + " done"},
	{name: "overlapping", in: "abcdefgh-and-more abcdefgh-and abcdefgh"},
	{name: "several", in: apiKey + password + "abcdefgh" + apiKey},
	{name: "none", in: "nothing to see here, just a log line\n"},
}

func TestWriterSplits(t *testing.T) {
	s := splitSet(t)
	texts := splitTexts
	for _, tt := range texts {
		want, _ := s.Redact([]byte(tt.in))
		t.Run(tt.name+" two writes", func(t *testing.T) {
			for i := 0; i <= len(tt.in); i++ {
				var b bytes.Buffer
				w := s.Writer(&b)
				writeAll(t, w, tt.in[:i], tt.in[i:])
				if b.String() != string(want) {
					t.Fatalf("split at %d: %q, want %q", i, b.String(), want)
				}
			}
		})
		t.Run(tt.name+" three writes", func(t *testing.T) {
			for i := 0; i <= len(tt.in); i += 3 {
				for j := i; j <= len(tt.in); j += 5 {
					var b bytes.Buffer
					writeAll(t, s.Writer(&b), tt.in[:i], tt.in[i:j], tt.in[j:])
					if b.String() != string(want) {
						t.Fatalf("split at %d, %d: %q, want %q", i, j, b.String(), want)
					}
				}
			}
		})
		t.Run(tt.name+" byte by byte", func(t *testing.T) {
			var b bytes.Buffer
			writeAll(t, s.Writer(&b), strings.Split(tt.in, "")...)
			if b.String() != string(want) {
				t.Fatalf("%q, want %q", b.String(), want)
			}
		})
	}
}

func writeAll(t *testing.T, w interface {
	Write([]byte) (int, error)
	Close() error
}, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestWriterHoldsBackLittle: a Writer passes on at once all but the
// longest tail that may begin the secret or an encoding of it, and Close
// writes that tail.
func TestWriterHoldsBackLittle(t *testing.T) {
	s := newTestSet(t, Secret{Name: "K", Value: "abcdefgh"})
	line := strings.Repeat("x", 1000)
	tests := []struct {
		name   string
		in     string
		passed string // passed on before Close
	}{
		{name: "no start of a secret", in: line, passed: line},
		{name: "ends with the start of the secret", in: line + "abc", passed: line},
		{name: "ends with the start of its hex", in: line + "616263", passed: line},
		{name: "ends with the secret", in: line + "abcdefgh", passed: line + Reference("K")},
		{name: "a line after the secret", in: "abcdefgh\n" + line, passed: Reference("K") + "\n" + line},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			w := s.Writer(&b)
			w.Write([]byte(tt.in))
			if b.String() != tt.passed {
				t.Errorf("passed on %d bytes before Close, want %d", b.Len(), len(tt.passed))
			}
			w.Close()
			if want, _ := s.Redact([]byte(tt.in)); b.String() != string(want) {
				t.Errorf("wrote %q, want %q", b.String(), want)
			}
			if n, err := w.Write([]byte("x")); n != 0 || err == nil {
				t.Errorf("Write after Close = %d, %v", n, err)
			}
			if err := w.Close(); err != nil {
				t.Errorf("second Close = %v", err)
			}
		})
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk full")
	}
	f.n--
	return len(p), nil
}

func TestWriterErrors(t *testing.T) {
	s := newTestSet(t, Secret{Name: "K", Value: "abcdefgh"})
	tests := []struct {
		name  string
		okays int
	}{
		{name: "first write fails", okays: 0},
		{name: "second write fails", okays: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := s.Writer(&failWriter{n: tt.okays})
			var err error
			for i := 0; i < 5 && err == nil; i++ {
				_, err = w.Write([]byte(strings.Repeat("y", 100)))
			}
			if err == nil || err.Error() != "disk full" {
				t.Fatalf("Write error = %v", err)
			}
			if _, err := w.Write([]byte("z")); err == nil {
				t.Error("Write after an error succeeded")
			}
			if err := w.Close(); err == nil {
				t.Error("Close after an error succeeded")
			}
		})
	}
}

func TestWriterEmptySet(t *testing.T) {
	var s Set
	var b bytes.Buffer
	w := s.Writer(&b)
	for i := 0; i < 3; i++ {
		fmt.Fprintf(w, "line %d\n", i)
		if b.Len() == 0 {
			t.Fatal("an empty Set's Writer held bytes back")
		}
	}
	w.Close()
	if b.String() != "line 0\nline 1\nline 2\n" {
		t.Errorf("%q", b.String())
	}
}
