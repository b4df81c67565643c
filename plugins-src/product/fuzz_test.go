package product_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// rustArguments reads in as a command's arguments object with the crate's
// reader (src/json.rs, through the native driver src/serve.rs): the text,
// or ok false and the failure.
func rustArguments(tb testing.TB, in []byte) (text string, ok bool) {
	tb.Helper()
	d := rustdriver.Start(tb, filepath.Join("src", "lib.rs"), "--cfg", "product_serve")
	a := d.Ask(tb, 'a', in)
	return string(a[1:]), a[0] == 0
}

// referenceArguments is encoding/json's reading of the same object: a map
// of raw members (the last of repeated keys counts), then the member
// "arguments" as a string or null.
func referenceArguments(in []byte) (string, bool) {
	if t := bytes.TrimLeft(in, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return "", false // a top-level null decodes to a nil map without error
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(in, &m) != nil {
		return "", false
	}
	var s *string
	if raw, ok := m["arguments"]; ok && json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	if s == nil {
		return "", true
	}
	return *s, true
}

// FuzzArguments holds the crate's JSON reader to encoding/json: for any
// UTF-8 input (a WIT string is UTF-8), the same text or both a failure.
func FuzzArguments(f *testing.F) {
	for _, s := range []string{`{"arguments":"fix it"}`, `{}`, `{"arguments":null}`, `null`, `{"arguments":1}`,
		`{"arguments":1,"arguments":"x"}`, `{"x":[1,-2.5e+3,{"y":[true,false,null,{}]},[]],"arguments":"a"}`,
		`{"arguments":"\ud800x\udc00\ud83d\ude00\ud800\u0041"}`, `{"x":01}`, `{"x":1.}`, `{"arguments":"a"} x`,
		`{"a":"\u00"}`, "{\"arguments\":\"\x7f\"}", `{"Arguments":"case matters"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !utf8.Valid(in) {
			return
		}
		got, ok := rustArguments(t, in)
		want, wantOK := referenceArguments(in)
		if ok != wantOK || ok && got != want {
			t.Fatalf("arguments(%q) = %q, %v; encoding/json gives %q, %v", in, got, ok, want, wantOK)
		}
	})
}

// TestArgumentsDepth: the crate refuses exactly the nesting encoding/json
// refuses (more than 10,000 levels), in arrays and objects. (Kept out of
// the fuzz corpus: minimizing inputs this large takes the fuzzer minutes.)
func TestArgumentsDepth(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		// Depth counts the arguments object itself.
		{name: "arrays-depth-10000", in: `{"x":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`, ok: true},
		{name: "arrays-depth-10001", in: `{"x":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`},
		{name: "empty-array-depth-10001", in: `{"x":` + strings.Repeat("[", 9999) + "[]" + strings.Repeat("]", 9999) + `}`},
		{name: "objects-depth-10000", in: `{"x":` + strings.Repeat(`{"y":`, 9998) + "{}" + strings.Repeat("}", 9998) + `}`, ok: true},
		{name: "objects-depth-10001", in: `{"x":` + strings.Repeat(`{"y":`, 10000) + "1" + strings.Repeat("}", 10000) + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := rustArguments(t, []byte(tt.in))
			_, wantOK := referenceArguments([]byte(tt.in))
			if ok != tt.ok || wantOK != tt.ok {
				t.Errorf("accepted: crate %v, encoding/json %v; want %v", ok, wantOK, tt.ok)
			}
		})
	}
}
