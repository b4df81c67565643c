package jsonschema

import "testing"

// FuzzValidate compiles arbitrary schemas and validates arbitrary documents:
// it must never panic, and a document that validates must be valid JSON.
func FuzzValidate(f *testing.F) {
	f.Add([]byte(readSchema), []byte(`{"path":"a","offset":0}`))
	f.Add([]byte(`{"type":"array","items":{"enum":[1,"a",null]}}`), []byte(`[1,"a",null,2]`))
	f.Add([]byte(`{"anyOf":[{"const":{"a":[1]}},{"type":"boolean"}]}`), []byte(`{"a":[1.0]}`))
	f.Fuzz(func(t *testing.T, schema, doc []byte) {
		s, err := Compile(schema)
		if err != nil {
			return
		}
		if err := s.Validate(doc); err == nil {
			if _, derr := decode(doc); derr != nil {
				t.Fatalf("invalid JSON %q accepted", doc)
			}
		}
	})
}
