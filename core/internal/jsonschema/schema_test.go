package jsonschema

import (
	"errors"
	"strings"
	"testing"
)

const readSchema = `{
  "type": "object",
  "properties": {
    "path":   {"type": "string", "minLength": 1, "description": "file to read"},
    "offset": {"type": "integer", "minimum": 1},
    "limit":  {"type": "integer", "minimum": 1, "maximum": 2000},
    "mode":   {"enum": ["text", "hex"]},
    "tags":   {"type": "array", "items": {"type": "string", "maxLength": 3}, "minItems": 1, "maxItems": 2},
    "ratio":  {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
    "name":   {"type": "string", "pattern": "^[a-z]+$"},
    "kind":   {"const": "file"},
    "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "opt":    {"type": ["string", "null"]}
  },
  "required": ["path"],
  "additionalProperties": false
}`

func TestValidate(t *testing.T) {
	s, err := Compile([]byte(readSchema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		doc  string
		want string // "" = valid
	}{
		{"minimal", `{"path":"a.go"}`, ""},
		{"full", `{"path":"a","offset":1,"limit":2000,"mode":"hex","tags":["ab"],"ratio":0.5,"name":"abc","kind":"file","either":3,"opt":null}`, ""},
		{"integer as float", `{"path":"a","offset":2.0}`, ""},
		{"missing required", `{}`, `at /: missing required property "path"`},
		{"wrong type", `{"path":7}`, `at /path: must be string, got integer 7`},
		{"root not object", `[1]`, `at /: must be object, got array [1]`},
		{"string for integer", `{"path":"a","offset":"1"}`, `at /offset: must be integer, got string "1"`},
		{"fraction for integer", `{"path":"a","offset":1.5}`, `at /offset: must be integer, got number 1.5`},
		{"below minimum", `{"path":"a","offset":0}`, `at /offset: must be >= 1, got 0`},
		{"above maximum", `{"path":"a","limit":2001}`, `at /limit: must be <= 2000, got 2001`},
		{"exclusive bounds", `{"path":"a","ratio":1}`, `at /ratio: must be < 1, got 1`},
		{"exclusive min", `{"path":"a","ratio":0}`, `at /ratio: must be > 0, got 0`},
		{"empty string", `{"path":""}`, `at /path: must be at least 1 characters long, got 0`},
		{"enum", `{"path":"a","mode":"bin"}`, `at /mode: must be one of "text", "hex", got string "bin"`},
		{"const", `{"path":"a","kind":"dir"}`, `at /kind: must be "file", got string "dir"`},
		{"unknown property", `{"path":"a","paht":"b"}`, `at /paht: unknown property "paht"; allowed: either, kind, limit, mode, name, offset, opt, path, ratio, tags`},
		{"too few items", `{"path":"a","tags":[]}`, `at /tags: must have at least 1 items, got 0`},
		{"too many items", `{"path":"a","tags":["a","b","c"]}`, `at /tags: must have at most 2 items, got 3`},
		{"item too long (runes)", `{"path":"a","tags":["äöüß"]}`, `at /tags/0: must be at most 3 characters long, got 4`},
		{"pattern", `{"path":"a","name":"A1"}`, `at /name: must match the pattern "^[a-z]+$", got string "A1"`},
		{"anyOf", `{"path":"a","either":true}`, `at /either: matches none of the 2 allowed alternatives (anyOf)`},
		{"type list", `{"path":"a","opt":1}`, `at /opt: must be string or null, got integer 1`},
		{"several at once", `{"offset":0,"x":1}`, `at /: missing required property "path"; at /offset: must be >= 1, got 0; at /x: unknown property "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate([]byte(tt.doc))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v; want a *ValidationError", err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("err = %q\nwant prefix %q", err, tt.want)
			}
		})
	}
}

func TestValidateBoundsViolations(t *testing.T) {
	s, err := Compile([]byte(`{"type":"array","items":{"type":"string"}}`))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Validate([]byte(`[1,2,3,4,5,6,7,8,9,10]`))
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Violations) != MaxViolations || ve.More != 2 {
		t.Fatalf("err = %v", err)
	}
	if !strings.HasSuffix(err.Error(), "; and 2 more") {
		t.Fatalf("err = %q", err)
	}
}

func TestValidateNotJSON(t *testing.T) {
	s, _ := Compile([]byte(`{}`))
	for _, doc := range []string{`{`, `{} {}`, ``} {
		err := s.Validate([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), "jsonschema: value is not valid JSON") {
			t.Fatalf("%q: err = %v", doc, err)
		}
	}
}

func TestAdditionalPropertiesSchema(t *testing.T) {
	s, err := Compile([]byte(`{"type":"object","additionalProperties":{"type":"integer"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate([]byte(`{"a":1,"b":2}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate([]byte(`{"a":1,"b":"x"}`)); err == nil || err.Error() != `at /b: must be integer, got string "x"` {
		t.Fatalf("err = %v", err)
	}
	if err := s.Validate([]byte(`{"a/b~":"x"}`)); err == nil || !strings.HasPrefix(err.Error(), "at /a~1b~0:") {
		t.Fatalf("pointer not escaped: %v", err)
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   string
	}{
		{"not json", `{`, "jsonschema: schema is not valid JSON"},
		{"not object", `[]`, `schema at "" is array, want an object`},
		{"false schema", `{"properties":{"a":false}}`, `schema at "/properties/a" is false`},
		{"unknown keyword", `{"oneOf":[]}`, `unsupported keyword "oneOf" at "/oneOf"`},
		{"unknown type", `{"type":"int"}`, `unknown type "int" at "/type"`},
		{"bad type list", `{"type":[1]}`, `keyword "type" at "/type" is array, want a type name`},
		{"bad required", `{"required":"a"}`, `keyword "required" at "/required" is string`},
		{"negative minLength", `{"minLength":-1}`, `keyword "minLength" at "/minLength" is integer, want a non-negative integer`},
		{"minimum string", `{"minimum":"1"}`, `keyword "minimum" at "/minimum" is string, want a number`},
		{"bad pattern", `{"pattern":"("}`, `pattern at "/pattern" does not compile`},
		{"empty enum", `{"enum":[]}`, `keyword "enum" at "/enum" is array, want a non-empty list`},
		{"nested bad", `{"properties":{"a":{"items":{"type":"x"}}}}`, `unknown type "x" at "/properties/a/items/type"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile([]byte(tt.schema))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want it to contain %q", err, tt.want)
			}
		})
	}
}
