package sessionfmt

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	iulid "github.com/smith-agent/smith/sessionfmt/internal/ulid"
)

// TestIDVectors checks ParseID, String and Time against the golden vectors
// that github.com/oklog/ulid/v2 (the implementation Smith's IDs replaced)
// produced: 200 IDs as text, bytes and time, and which strings its strict
// parser accepted (with what bytes) and rejected (for what rule). The file
// was written with -update by the differential test against oklog, removed
// with the dependency (see the history of id_oklog_test.go); it is not to be
// regenerated from Smith's own code.
func TestIDVectors(t *testing.T) {
	data, err := os.ReadFile(vectorsPath)
	if err != nil {
		t.Fatal(err)
	}
	ids, parses, err := readVectors(data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(formatVectors(ids, parses), data) {
		t.Fatalf("%s is not in its canonical form: hand-edited?", vectorsPath)
	}
	if want := vectorIDs(); len(ids) != len(want) || len(parses) != len(vectorInputs(want)) {
		t.Fatalf("%s has %d ids and %d parse vectors, want %d and %d", vectorsPath, len(ids), len(parses), len(want), len(vectorInputs(want)))
	}
	for _, v := range ids {
		id, err := ParseID(v.text)
		if err != nil || id != v.id {
			t.Fatalf("ParseID(%s) = %x, %v; want %x", v.text, id[:], err, v.id[:])
		}
		want := v.text
		if v.id.IsZero() {
			want = "" // the zero ID means "none"
		}
		if s := v.id.String(); s != want {
			t.Fatalf("%x.String() = %q, want %q", v.id[:], s, want)
		}
		if tm := v.id.Time(); !tm.Equal(time.UnixMilli(int64(v.ms))) || tm.Location() != time.Local {
			t.Fatalf("%s.Time() = %v, want %d ms in time.Local", v.text, tm, v.ms)
		}
	}
	accepted := 0
	for _, v := range parses {
		id, err := ParseID(v.input)
		if v.reason == 0 {
			accepted++
			if err != nil || id != v.id {
				t.Fatalf("ParseID(%q) = %x, %v; want %x", v.input, id[:], err, v.id[:])
			}
			if !id.IsZero() && id.String() != strings.ToUpper(v.input) {
				t.Fatalf("ParseID(%q).String() = %s, want the input in uppercase", v.input, id)
			}
			continue
		}
		var e *iulid.Error
		if err == nil || !errors.As(err, &e) || e.Reason != v.reason || !id.IsZero() {
			t.Fatalf("ParseID(%q) = %x, %v; want a %s error", v.input, id[:], err, reasonNames[v.reason])
		}
	}
	if accepted < 300 || accepted == len(parses) {
		t.Fatalf("%d of %d parse vectors accepted: the golden file lost its variety", accepted, len(parses))
	}
}
