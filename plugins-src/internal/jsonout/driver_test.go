package jsonout_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// The driver's operations (testdata/driver.rs).
const (
	opString = 's'
	opFloat  = 'f'
	opRaw    = 'r'
	opValue  = 'v'
)

// driver returns the running driver, built from testdata/driver.rs.
func driver(tb testing.TB) *rustdriver.Driver {
	tb.Helper()
	return rustdriver.Start(tb, "testdata/driver.rs")
}

// rust asks the driver to encode payload with op and returns its JSON
// text, or the message of the error the module returned.
func rust(t *testing.T, op byte, payload []byte) (text []byte, errMsg string) {
	t.Helper()
	reply := driver(t).Ask(t, op, payload)
	switch {
	case len(reply) > 0 && reply[0] == 0:
		return reply[1:], ""
	case len(reply) > 1 && reply[0] == 1:
		return nil, string(reply[1:])
	}
	t.Fatalf("the driver answered op %q with %q, neither a text nor an error message", op, reply)
	return nil, ""
}

// same fails t unless the Rust module and encoding/json agree: the same
// text, or both an error (the module's naming itself).
func same(t *testing.T, what string, want []byte, wantErr error, got []byte, gotErr string) {
	t.Helper()
	switch {
	case wantErr != nil && gotErr == "":
		t.Fatalf("%s: encoding/json fails (%v) but the Rust module wrote %q", what, wantErr, got)
	case wantErr == nil && gotErr != "":
		t.Fatalf("%s: encoding/json writes %q but the Rust module fails: %s", what, want, gotErr)
	case wantErr != nil && !strings.HasPrefix(gotErr, "jsonout: "):
		t.Fatalf("%s: the Rust module's error %q does not name the module", what, gotErr)
	case wantErr == nil && string(got) != string(want):
		t.Fatalf("%s:\nencoding/json %q\nRust module   %q", what, want, got)
	}
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// encode appends v in the driver's value encoding, deciding what Marshal
// decides before it writes: nil slices, maps, pointers and interfaces are
// null, struct fields come in declaration order under their json names,
// with "-" fields and empty omitempty fields left out (as a request
// builder does by hand). Maps are passed in Go's random iteration order:
// the module sorts them.
func encode(b []byte, v reflect.Value) []byte {
	u32 := func(b []byte, n int) []byte { return binary.LittleEndian.AppendUint32(b, uint32(n)) }
	switch {
	case !v.IsValid():
		return append(b, 'n')
	case v.Type() == rawMessageType:
		if v.IsNil() {
			return append(b, 'n')
		}
		return append(u32(append(b, 'r'), v.Len()), v.Bytes()...)
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return append(b, 'n')
		}
		return encode(b, v.Elem())
	case reflect.Bool:
		if v.Bool() {
			return append(b, 't')
		}
		return append(b, 'F')
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.LittleEndian.AppendUint64(append(b, 'i'), uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return binary.LittleEndian.AppendUint64(append(b, 'u'), v.Uint())
	case reflect.Float64:
		return binary.LittleEndian.AppendUint64(append(b, 'd'), math.Float64bits(v.Float()))
	case reflect.String:
		return append(u32(append(b, 's'), v.Len()), v.String()...)
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 'n')
		}
		b = u32(append(b, 'a'), v.Len())
		for i := range v.Len() {
			b = encode(b, v.Index(i))
		}
		return b
	case reflect.Map:
		if v.IsNil() {
			return append(b, 'n')
		}
		b = u32(append(b, 'm'), v.Len())
		for it := v.MapRange(); it.Next(); {
			b = append(u32(b, it.Key().Len()), it.Key().String()...)
			b = encode(b, it.Value())
		}
		return b
	case reflect.Struct:
		var fields []byte
		n := 0
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			omitempty := slices.Contains(strings.Split(opts, ","), "omitempty")
			if !f.IsExported() || name == "-" || omitempty && isEmpty(v.Field(i)) {
				continue
			}
			if name == "" {
				name = f.Name
			}
			fields = append(u32(fields, len(name)), name...)
			fields = encode(fields, v.Field(i))
			n++
		}
		return append(u32(append(b, 'o'), n), fields...)
	}
	panic("jsonout: the test encoding has no form for a " + v.Type().String() + "; extend encode")
}

// isEmpty is encoding/json's notion of an empty value for omitempty: a
// struct is never empty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Slice, reflect.Map, reflect.String:
		return v.Len() == 0
	case reflect.Struct:
		return false
	}
	return v.IsZero()
}
