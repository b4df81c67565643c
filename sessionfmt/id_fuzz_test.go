package sessionfmt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	iulid "github.com/smith-agent/smith/sessionfmt/internal/ulid"
)

// parseIDSeeds are the committed seeds of FuzzParseID: valid IDs in each
// case, the largest, zero, overflow, excluded letters, wrong lengths and
// non-ASCII bytes.
var parseIDSeeds = map[string]string{
	"valid":          "01ARZ3NDEKTSV4RRFFQ69G5FAV",
	"lowercase":      "01arz3ndektsv4rrffq69g5fav",
	"largest":        "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
	"zero":           "00000000000000000000000000",
	"overflow":       "8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
	"excluded-i":     "01ARZ3NDEKTSV4RRFFQ69G5FAI",
	"excluded-lower": "01ARZ3NDEKTSV4RRFFQ69G5FAu",
	"short":          "01ARZ3NDEKTSV4RRFFQ69G5FA",
	"long":           "01ARZ3NDEKTSV4RRFFQ69G5FAV0",
	"empty":          "",
	"utf8":           "01ARZ3NDEKTSV4RRFFQ69G5F\u00e9",
	"high-byte":      "\xff1ARZ3NDEKTSV4RRFFQ69G5FAV",
}

// TestWriteParseIDSeeds writes FuzzParseID's committed seed corpus with
// -update, and checks that it is there.
func TestWriteParseIDSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzParseID")
	for name, s := range parseIDSeeds {
		path := filepath.Join(dir, name)
		want := fmt.Sprintf("go test fuzz v1\nstring(%q)\n", s)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Fatalf("seed %s missing or stale (run go test -run TestWriteParseIDSeeds -update): %v", path, err)
		}
	}
}

// acceptable is the strict ULID rule, stated independently of the parser: 26
// bytes, each a Crockford base32 digit in either case, the first at most '7'.
func acceptable(s string) iulid.Reason {
	if len(s) != 26 {
		return iulid.BadLength
	}
	for i := range len(s) {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if strings.IndexByte("0123456789ABCDEFGHJKMNPQRSTVWXYZ", c) < 0 {
			return iulid.BadCharacter
		}
	}
	if s[0] > '7' {
		return iulid.Overflow
	}
	return 0
}

// FuzzParseID: ParseID accepts exactly what the strict rule allows, rejects
// the rest for the right reason, and what it accepts formats back to the
// input in uppercase and parses again to the same ID.
func FuzzParseID(f *testing.F) {
	for _, s := range parseIDSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseID(s)
		want := acceptable(s)
		if want != 0 {
			var e *iulid.Error
			if err == nil || !errors.As(err, &e) || e.Reason != want || !id.IsZero() {
				t.Fatalf("ParseID(%q) = %x, %v; want reason %d", s, id[:], err, want)
			}
			return
		}
		if err != nil {
			t.Fatalf("ParseID(%q): %v", s, err)
		}
		text := id.String()
		if id.IsZero() {
			if strings.Trim(s, "0") != "" || text != "" {
				t.Fatalf("ParseID(%q) is zero, String %q", s, text)
			}
			return
		}
		if text != strings.ToUpper(s) {
			t.Fatalf("ParseID(%q).String() = %q, want the input in uppercase", s, text)
		}
		if again, err := ParseID(text); err != nil || again != id {
			t.Fatalf("ParseID(%q) = %x, %v; want %x", text, again[:], err, id[:])
		}
	})
}
