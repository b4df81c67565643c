package retryhint_test

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
)

// opFold asks the driver for equal_fold(text, name).
const opFold = 'f'

// foldNames are ASCII names in the codec's shapes: header names, JSON
// field names of every case, with the letters k and s that non-ASCII runes
// fold to, and i, which ı and İ do not.
var foldNames = []string{"retry-after", "type", "TYPE", "message", "quotaId", "request_id", "@type", "k", "kelvins", "s", "is", ""}

// compareFold fails t unless equal_fold(text, name) is
// strings.EqualFold(text, name), and, where name is a Go field name,
// encoding/json fills the field from the key text exactly then.
func compareFold(t *testing.T, name, text string) {
	t.Helper()
	payload := binary.LittleEndian.AppendUint32(nil, uint32(len(name)))
	payload = append(append(payload, name...), text...)
	reply := driver(t).Ask(t, opFold, payload)
	want := strings.EqualFold(text, name)
	if len(reply) != 1 || (reply[0] == 1) != want {
		t.Fatalf("equal_fold(%q, %q) = %v, strings.EqualFold says %v", text, name, reply, want)
	}
	if name == "TYPE" {
		var v struct{ TYPE string }
		key, _ := json.Marshal(text)
		if json.Unmarshal([]byte(`{`+string(key)+`:"x"}`), &v) == nil && (v.TYPE == "x") != want {
			t.Fatalf("encoding/json matches key %q to field TYPE: %v, strings.EqualFold: %v", text, v.TYPE == "x", want)
		}
	}
}

// TestRustEqualFold: equal_fold is strings.EqualFold against an ASCII
// name (and encoding/json's key matching) on every case mix, the runes
// that fold to ASCII letters and those that only look alike.
func TestRustEqualFold(t *testing.T) {
	texts := []string{"", "type", "Type", "TYPE", "tYpE", "t\u0131pe", "T\u0130PE", "types", "typ", "typ\xff", "\u212a", "k", "K",
		"\u212aelvin\u017f", "KELVINS", "\u017f", "S", "\u0131s", "is", "IS", "Retry-After", "RETRY-AFTER", "retry_after",
		"me\u017f\u017fage", "QUOTAID", "quotaid", "REQUEST_ID", "request_\u0130d", "@TYPE", "@Type", "_type"}
	for _, name := range foldNames {
		for _, text := range texts {
			compareFold(t, name, text)
		}
	}
}

// FuzzRustEqualFold: equal_fold on arbitrary text against each name.
func FuzzRustEqualFold(f *testing.F) {
	driver(f)
	for _, s := range []string{"TYPE", "\u212aelvin\u017f", "t\u0131pe", "typ\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, name := range foldNames {
			compareFold(t, name, text)
		}
	})
}
