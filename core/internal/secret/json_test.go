package secret

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestRedactJSON(t *testing.T) {
	secrets := []Secret{
		{Name: "NKEY", Value: "nXYZ123456789"},        // begins with an escape's letter
		{Name: "U_KEY", Value: "u00410042ABCDEF"},     // spells the inside of \u0041
		{Name: "HEX", Value: "0041-sk-hex-9876"},      // begins inside \u0041
		{Name: "QUOTED", Value: `quo"ted-secret-1`},   // encoded \" in JSON
		{Name: "BSLASH", Value: `back\slash-secret`},  // encoded \\ in JSON
		{Name: "CTRL", Value: "ctrl\tsecret-value"},   // encoded \t in JSON
		{Name: "ENDS", Value: "tail-secret-abc\\"},    // ends with a backslash
		{Name: "NUM", Value: "98765432109"},           // digits, as a number
		{Name: "PLAIN", Value: "sk-plain-abcdef1234"}, // an ordinary key
	}
	var s Set
	for _, sec := range secrets {
		mustAdd(t, &s, sec)
	}
	tests := []struct {
		name, in, want string
	}{
		{name: "escape letter before the secret is kept", in: `{"a":"x\nXYZ123456789"}`, want: `{"a":"x\nXYZ123456789"}`},
		{name: "escaped backslash then the secret", in: `{"a":"x\\nXYZ123456789"}`, want: `{"a":"x\\${secret:NKEY}"}`},
		{name: "three backslashes: the secret follows an escape", in: `{"a":"\\\nXYZ123456789"}`, want: `{"a":"\\\nXYZ123456789"}`},
		{name: "inside a \\u escape", in: `{"a":"\u00410042ABCDEF"}`, want: `{"a":"\u00410042ABCDEF"}`},
		{name: "starting inside \\u0041", in: `{"a":"\u0041-sk-hex-9876"}`, want: `{"a":"\u0041-sk-hex-9876"}`},
		{name: "\\u spelled after an escaped backslash", in: `{"a":"\\u00410042ABCDEF"}`, want: `{"a":"\\${secret:U_KEY}"}`},
		{name: "a quote encoded as \\\"", in: `{"a":"quo\"ted-secret-1"}`, want: `{"a":"${secret:QUOTED}"}`},
		{name: "a backslash encoded as \\\\", in: `{"a":"back\\slash-secret"}`, want: `{"a":"${secret:BSLASH}"}`},
		{name: "a tab encoded as \\t", in: `{"a":"ctrl\tsecret-value"}`, want: `{"a":"${secret:CTRL}"}`},
		{name: "a match ending inside an escape", in: `{"a":"tail-secret-abc\u0041"}`, want: `{"a":"tail-secret-abc\u0041"}`},
		{name: "ending with an escaped backslash", in: `{"a":"tail-secret-abc\\"}`, want: `{"a":"${secret:ENDS}"}`},
		{name: "a number outside strings", in: `{"a":98765432109}`, want: `{"a":${secret:NUM}}`},
		{name: "a match crossing a string's end", in: `{"a":"sk-plain-abc","def1234":1}`, want: `{"a":"sk-plain-abc","def1234":1}`},
		{name: "an ordinary key in a key", in: `{"sk-plain-abcdef1234":[1,"sk-plain-abcdef1234"]}`, want: `{"${secret:PLAIN}":[1,"${secret:PLAIN}"]}`},
		{name: "not JSON is redacted as Redact does", in: `x\nXYZ123456789 "`, want: `x\${secret:NKEY} "`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ok := s.RedactJSON([]byte(tt.in))
			if string(out) != tt.want {
				t.Fatalf("RedactJSON(%s) = %s, want %s", tt.in, out, tt.want)
			}
			if ok != (tt.in != tt.want) || s.ContainsJSON([]byte(tt.in)) != ok {
				t.Fatalf("RedactJSON(%s) reported %v", tt.in, ok)
			}
			if json.Valid([]byte(tt.in)) && tt.name != "a number outside strings" && !json.Valid(out) {
				t.Fatalf("RedactJSON(%s) = %s, not JSON", tt.in, out)
			}
			for split := range len(tt.in) + 1 {
				st := s.JSONStream()
				got := append([]byte(nil), st.Next([]byte(tt.in[:split]))...)
				got = append(got, st.Next([]byte(tt.in[split:]))...)
				got = append(got, st.Flush()...)
				if json.Valid([]byte(tt.in)) && string(got) != tt.want {
					t.Fatalf("JSONStream split at %d of %s passed on %s, want %s", split, tt.in, got, tt.want)
				}
			}
		})
	}
}

// outsideJSONStrings reports whether every byte of f can stand outside a
// string in JSON text, so that a match of f can start there.
func outsideJSONStrings(f string) bool {
	for i := 0; i < len(f); i++ {
		if bytes.IndexByte([]byte(" \t\r\n{}[],:0123456789+-.eEtruefalsn"), f[i]) < 0 {
			return false
		}
	}
	return true
}

// FuzzRedactJSON checks that RedactJSON of valid JSON is valid JSON (when
// no secret can match outside strings, where a match is replaced all the
// same), that redacting it again changes nothing, and that a JSONStream
// fed the text in two pieces passes on the same.
func FuzzRedactJSON(f *testing.F) {
	f.Add([]byte(`{"a":"x\nXYZ123456789"}`), "nXYZ123456789", 3)
	f.Add([]byte(`{"a":"\u00410042ABCDEF","b":"`+apiKey+`"}`), "u00410042ABCDEF", 9)
	f.Add([]byte(`["quo\"ted-secret-1", "\\\\\"x"]`), `quo"ted-secret-1`, 5)
	f.Add([]byte(`{"p":"p@ss\/w\u003co\u003erd\u0026\"q\"+x=y \u00e9~"}`), "", 0)
	f.Add([]byte(`"tail-secret-abc\\"`), "tail-secret-abc\\", 1)
	f.Fuzz(func(t *testing.T, data []byte, extra string, split int) {
		var s Set
		for _, sec := range []Secret{
			{Name: "API_KEY", Value: apiKey},
			{Name: "DB_PASSWORD", Value: password},
			{Name: "SHORT", Value: "abcdefgh"},
			{Name: "LONG", Value: "abcdefgh-and-more"},
		} {
			mustAdd(t, &s, sec)
		}
		outside := false
		if s.Add(Secret{Name: "FUZZ", Value: extra}) == nil {
			for _, f := range encodings(extra) {
				outside = outside || outsideJSONStrings(f)
			}
		}
		out, ok := s.RedactJSON(data)
		if !ok && !bytes.Equal(out, data) {
			t.Fatalf("RedactJSON changed %q to %q without a match", data, out)
		}
		valid := json.Valid(data)
		if valid && !outside && !json.Valid(out) {
			t.Fatalf("RedactJSON(%s) = %s, not JSON", data, out)
		}
		if again, ok := s.RedactJSON(out); ok || !bytes.Equal(again, out) {
			t.Fatalf("RedactJSON(%q) = %q, but RedactJSON of that = %q", data, out, again)
		}
		if !valid {
			return
		}
		if split < 0 {
			split = -split
		}
		split %= len(data) + 1
		st := s.JSONStream()
		got := append([]byte(nil), st.Next(data[:split])...)
		got = append(got, st.Next(data[split:])...)
		if got = append(got, st.Flush()...); !bytes.Equal(got, out) {
			t.Fatalf("JSONStream split at %d passed on %q, RedactJSON %q", split, got, out)
		}
	})
}
