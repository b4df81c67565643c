package jsonout_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// The driver's error-text operations (testdata/driver.rs).
const (
	opMarshalError = 'e' // a RawMessage, failing with marshal_error_text
	opSyntaxError  = 'x' // a RawMessage, failing with syntax_error_text
	opFloatError   = 'g' // a float64, failing with marshal_error_text
)

// sameErrorText fails t unless the Rust module gives raw the error texts
// encoding/json gives it: json.Marshal's for a json.RawMessage holding it
// (marshal_error_text) and json.Unmarshal's for the same bytes
// (syntax_error_text); a raw value Marshal takes, the driver must compact.
func sameErrorText(t *testing.T, raw []byte) {
	t.Helper()
	want, err := json.Marshal(json.RawMessage(append([]byte{}, raw...)))
	got, gotErr := rust(t, opMarshalError, raw)
	if err == nil {
		if gotErr != "" || string(got) != string(want) {
			t.Fatalf("raw %q: encoding/json writes %q, the Rust module %q (error %q)", raw, want, got, gotErr)
		}
		return
	}
	if gotErr != err.Error() {
		t.Fatalf("raw %q: json.Marshal's error\n%s\nRust marshal_error_text\n%s", raw, err, gotErr)
	}
	var v any
	uerr := json.Unmarshal(raw, &v)
	if uerr == nil {
		t.Fatalf("raw %q: json.Unmarshal takes what json.Marshal refuses (%v)", raw, err)
	}
	if _, gotSyntax := rust(t, opSyntaxError, raw); gotSyntax != uerr.Error() {
		t.Fatalf("raw %q: json.Unmarshal's error\n%s\nRust syntax_error_text\n%s", raw, uerr, gotSyntax)
	}
}

// TestGoErrorTexts: for raw values that fail in every way the scanner
// knows (each context, cut at the end of each token kind, each class of
// byte quoteChar writes, too deep) the Rust texts are encoding/json's.
func TestGoErrorTexts(t *testing.T) {
	cases := []struct {
		name string
		raw  string
	}{
		{"empty", ""},
		{"only space", "  "},
		{"missing value", `{"type":}`},
		{"two values", "1 2"},
		{"unclosed array", "[1"},
		{"unclosed object", `{"a"`},
		{"unclosed string", `["abc`},
		{"cut true", "tru"},
		{"cut t", "t"},
		{"cut false", "fals"},
		{"cut null", "nul"},
		{"wrong letter in true", "trUe"},
		{"wrong letter in null", "nux"},
		{"wrong letter in false", "falx"},
		{"space in null", "[nul ]"},
		{"single quoted key", "{'a':1}"},
		{"control in string", "[\"\x01\"]"},
		{"tab in string", "\"\t\""},
		{"latin-1 letter", "\xe9"},
		{"no-break space", "\xa0"},
		{"soft hyphen", "\xad"},
		{"C1 control", "\x80"},
		{"delete", "\x7f"},
		{"bell", "\x07"},
		{"vertical tab", "\x0b"},
		{"backslash", `\`},
		{"double quote after key", `{"a":1 "b"}`},
		{"missing colon", `{"a" 1}`},
		{"non-string key", "{1}"},
		{"array element", "[1 2]"},
		{"minus letter", "-x"},
		{"cut minus", "-"},
		{"cut decimal point", "1."},
		{"letter after decimal point", "1.e"},
		{"cut exponent", "1e+"},
		{"leading zero", "01"},
		{"cut unicode escape", `["\u1`},
		{"bad unicode escape", `"\u12g4"`},
		{"cut escape", `["\`},
		{"bad escape", `"\x"`},
		{"too deep", strings.Repeat("[", 10001) + strings.Repeat("]", 10001)},
		{"too deep objects", strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001)},
		{"valid", ` {"a" : [1, true]} `},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { sameErrorText(t, []byte(c.raw)) })
	}
}

// TestGoFloatErrorTexts: a float64 without a JSON form fails with
// json.Marshal's UnsupportedValueError text.
func TestGoFloatErrorTexts(t *testing.T) {
	cases := []struct {
		name string
		v    float64
	}{
		{"nan", math.NaN()},
		{"positive infinity", math.Inf(1)},
		{"negative infinity", math.Inf(-1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := json.Marshal(c.v)
			if err == nil {
				t.Fatalf("encoding/json writes %v", c.v)
			}
			_, got := rust(t, opFloatError, binary.LittleEndian.AppendUint64(nil, math.Float64bits(c.v)))
			if got != err.Error() {
				t.Fatalf("%s: json.Marshal's error %q, Rust marshal_error_text %q", strconv.FormatFloat(c.v, 'g', -1, 64), err, got)
			}
		})
	}
}
