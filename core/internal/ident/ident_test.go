package ident

import (
	"regexp"
	"strings"
	"testing"
)

// The patterns these checks replace serve as the oracle.
var (
	sessionName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	toolName    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
)

func sessionRest(c byte) bool { return Alnum(c) || c == '.' || c == '_' || c == '-' }
func toolRest(c byte) bool    { return Alnum(c) || c == '_' || c == '-' }

func check(t *testing.T, s string) {
	t.Helper()
	if got, want := Valid(s, 64, Alnum, sessionRest), sessionName.MatchString(s); got != want {
		t.Errorf("session name %q: Valid = %v, regexp = %v", s, got, want)
	}
	if got, want := Valid(s, 64, Letter, toolRest), toolName.MatchString(s); got != want {
		t.Errorf("tool name %q: Valid = %v, regexp = %v", s, got, want)
	}
}

func TestValidMatchesRegexp(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"empty", ""},
		{"one letter", "a"},
		{"one digit", "7"},
		{"leading dot", ".a"},
		{"leading dash", "-a"},
		{"dots and dashes", "fix-the.bug_2"},
		{"64 bytes", strings.Repeat("a", 64)},
		{"65 bytes", strings.Repeat("a", 65)},
		{"space", "a b"},
		{"trailing newline", "abc\n"},
		{"non-ASCII", "café"},
		{"bracket neighbours", "a@[`{"},
		{"upper and lower", "ReadFile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check(t, tt.in) })
	}
	for c := 0; c < 256; c++ {
		check(t, string([]byte{byte(c)}))
		check(t, string([]byte{'a', byte(c)}))
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range []string{"", "a", "fix-the-bug", "a\n", "ß", strings.Repeat("z", 65)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { check(t, s) })
}

func TestDistance(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       int
	}{
		{name: "equal", a: "sonnet", b: "sonnet", want: 0},
		{name: "one typo", a: "claude-sonet-4-5", b: "claude-sonnet-4-5", want: 1},
		{name: "empty", a: "", b: "abc", want: 3},
		{name: "swap is two", a: "ab", b: "ba", want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Distance(tt.a, tt.b); got != tt.want {
				t.Fatalf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
		})
	}
}
