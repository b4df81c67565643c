package jsonscan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// walk reads the next value generically, as encoding/json decodes into
// any with UseNumber.
func walk(d *Decoder) any {
	switch d.Peek() {
	case Object:
		m := map[string]any{}
		d.Object(func(key []byte) {
			k := string(key) // key is reused by nested objects
			m[k] = walk(d)
		})
		return m
	case Array:
		a := []any{}
		d.Array(func() { a = append(a, walk(d)) })
		return a
	case Str:
		return d.Str().String()
	case Number:
		return json.Number(d.Raw())
	case Bool:
		return d.Bool()
	case Null:
		d.Skip()
		return nil
	}
	d.Skip() // records the syntax error
	return nil
}

// FuzzScan checks the decoder against encoding/json: the same texts are
// valid, they decode to the same values, and every string and integer
// reads as encoding/json reads it into a string or an int64.
func FuzzScan(f *testing.F) {
	for _, tc := range scanCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d Decoder
		d.Reset(data)
		got := walk(&d)
		err := d.Finish()
		if valid := json.Valid(data); valid != (err == nil) {
			t.Fatalf("json.Valid(%q) = %v, jsonscan error = %v", data, valid, err)
		}
		if err != nil {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("encoding/json refused the valid %q: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: jsonscan read %#v, encoding/json %#v", data, got, want)
		}
		d.Reset(data)
		raw := d.Raw()
		if err := d.Finish(); err != nil || !bytes.Equal(raw, bytes.TrimSpace(data)) {
			t.Fatalf("Raw(%q) = %q, %v; want the trimmed text", data, raw, err)
		}
		var s string
		wantErr := json.Unmarshal(data, &s)
		d.Reset(data)
		gotS := d.Str().String()
		if gotErr := d.Finish(); (gotErr == nil) != (wantErr == nil) || gotS != s {
			t.Fatalf("Str(%q) = %q, %v; encoding/json %q, %v", data, gotS, gotErr, s, wantErr)
		}
		var n int64
		wantErr = json.Unmarshal(data, &n)
		d.Reset(data)
		gotN, _ := d.Int()
		if gotErr := d.Finish(); (gotErr == nil) != (wantErr == nil) || gotN != n {
			t.Fatalf("Int(%q) = %d, %v; encoding/json %d, %v", data, gotN, gotErr, n, wantErr)
		}
	})
}
