package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestAppendQuote(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain", "abc", `"abc"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`},
		{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"other control characters", "\x00\x1f\x7f", `"\u0000\u001f` + "\x7f" + `"`},
		{"html", "<a&b>", `"\u003ca\u0026b\u003e"`},
		{"line and paragraph separators", "\u2028\u2029", `"\u2028\u2029"`},
		{"invalid utf-8", "a\xffb\xc3", `"a\ufffdb\ufffd"`},
		{"multi-byte kept", "é世", `"é世"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendQuote(nil, tc.in)); got != tc.want {
				t.Fatalf("AppendQuote(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestAppendCompact(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"whitespace outside strings", " { \"a\" :\t[1 ,\n2 ] }\r\n", `{"a":[1,2]}`},
		{"whitespace inside strings kept", `"a b"`, `"a b"`},
		{"escapes kept", `"a\"b\\"`, `"a\"b\\"`},
		{"html escaped in strings", `{"k":"<&>"}`, `{"k":"\u003c\u0026\u003e"}`},
		{"separators escaped", "\"\u2028\u2029\"", `"\u2028\u2029"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendCompact(nil, []byte(tc.in))); got != tc.want {
				t.Fatalf("AppendCompact(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzQuote checks AppendQuote against json.Marshal of a string and
// AppendCompact against json.Marshal of a json.RawMessage.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c<>&", "\x00\b\f\n\r\t\x1f\x7f", "\u2028\u2029é", "\xff\xc3(", `{"a": [1, "<x>"] }`, "\"\u2028<\u2029\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendQuote(nil, s); string(got) != string(want) {
			t.Fatalf("AppendQuote(%q) = %s, json.Marshal %s", s, got, want)
		}
		if !json.Valid([]byte(s)) {
			return
		}
		want, err = json.Marshal(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendCompact(nil, []byte(s)); string(got) != string(want) {
			t.Fatalf("AppendCompact(%q) = %s, json.Marshal %s", s, got, want)
		}
	})
}
