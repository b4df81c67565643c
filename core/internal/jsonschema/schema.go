package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Schema is a compiled schema. It is immutable and safe for concurrent use.
type Schema struct {
	types            []string
	properties       map[string]*Schema
	required         []string
	additional       *Schema
	noAdditional     bool
	enum             []any
	constant         *any
	items            *Schema
	minItems         *int
	maxItems         *int
	minimum          *float64
	maximum          *float64
	exclusiveMinimum *float64
	exclusiveMaximum *float64
	minLength        *int
	maxLength        *int
	pattern          *regexp.Regexp
	anyOf            []*Schema
}

var annotations = map[string]bool{"title": true, "description": true, "default": true,
	"examples": true, "format": true, "$schema": true, "$id": true}

var typeNames = []string{"object", "array", "string", "number", "integer", "boolean", "null"}

// Compile parses a schema. The error names the JSON Pointer of the offending
// keyword inside the schema.
func Compile(schema []byte) (*Schema, error) {
	v, err := decode(schema)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: schema is not valid JSON: %w", err)
	}
	return compile(v, "")
}

func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

func compile(v any, at string) (*Schema, error) {
	if b, ok := v.(bool); ok {
		if b {
			return &Schema{}, nil
		}
		return nil, fmt.Errorf("jsonschema: schema at %q is false; only object schemas and true are supported", at)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("jsonschema: schema at %q is %s, want an object", at, kind(v))
	}
	s := &Schema{}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := s.keyword(k, obj[k], at+"/"+escape(k)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *Schema) keyword(k string, v any, at string) error {
	bad := func(want string) error {
		return fmt.Errorf("jsonschema: keyword %q at %q is %s, want %s", k, at, kind(v), want)
	}
	var err error
	switch k {
	case "type":
		switch t := v.(type) {
		case string:
			s.types = []string{t}
		case []any:
			for _, e := range t {
				str, ok := e.(string)
				if !ok {
					return bad("a type name or a list of type names")
				}
				s.types = append(s.types, str)
			}
		default:
			return bad("a type name or a list of type names")
		}
		for _, t := range s.types {
			if !slices.Contains(typeNames, t) {
				return fmt.Errorf("jsonschema: unknown type %q at %q; want one of %s", t, at, strings.Join(typeNames, ", "))
			}
		}
	case "properties":
		obj, ok := v.(map[string]any)
		if !ok {
			return bad("an object")
		}
		s.properties = make(map[string]*Schema, len(obj))
		for name, sub := range obj {
			if s.properties[name], err = compile(sub, at+"/"+escape(name)); err != nil {
				return err
			}
		}
	case "required":
		list, ok := v.([]any)
		if !ok {
			return bad("a list of property names")
		}
		for _, e := range list {
			str, ok := e.(string)
			if !ok {
				return bad("a list of property names")
			}
			s.required = append(s.required, str)
		}
	case "additionalProperties":
		if b, ok := v.(bool); ok {
			s.noAdditional = !b
			return nil
		}
		s.additional, err = compile(v, at)
	case "items":
		s.items, err = compile(v, at)
	case "anyOf":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return bad("a non-empty list of schemas")
		}
		for i, e := range list {
			sub, err := compile(e, at+"/"+strconv.Itoa(i))
			if err != nil {
				return err
			}
			s.anyOf = append(s.anyOf, sub)
		}
	case "enum":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return bad("a non-empty list")
		}
		s.enum = list
	case "const":
		s.constant = &v
	case "minItems", "maxItems", "minLength", "maxLength":
		n, ok := nonNegInt(v)
		if !ok {
			return bad("a non-negative integer")
		}
		*map[string]**int{"minItems": &s.minItems, "maxItems": &s.maxItems,
			"minLength": &s.minLength, "maxLength": &s.maxLength}[k] = &n
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		num, ok := v.(json.Number)
		if !ok {
			return bad("a number")
		}
		f, _ := num.Float64()
		*map[string]**float64{"minimum": &s.minimum, "maximum": &s.maximum,
			"exclusiveMinimum": &s.exclusiveMinimum, "exclusiveMaximum": &s.exclusiveMaximum}[k] = &f
	case "pattern":
		str, ok := v.(string)
		if !ok {
			return bad("a regular expression string")
		}
		if s.pattern, err = regexp.Compile(str); err != nil {
			return fmt.Errorf("jsonschema: pattern at %q does not compile: %w", at, err)
		}
	default:
		if !annotations[k] {
			return fmt.Errorf("jsonschema: unsupported keyword %q at %q; supported: type, properties, required, additionalProperties, enum, const, items, minItems, maxItems, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, anyOf", k, at)
		}
	}
	return err
}

func nonNegInt(v any) (int, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(num.String())
	return n, err == nil && n >= 0
}

// kind names the JSON type of a decoded value for messages.
func kind(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if isInteger(t) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func isInteger(n json.Number) bool {
	f, err := n.Float64()
	return err == nil && !math.IsInf(f, 0) && f == math.Trunc(f)
}

// escape encodes a JSON Pointer reference token (RFC 6901).
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
