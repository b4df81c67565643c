package jsonschema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxViolations bounds how many violations one validation reports.
const MaxViolations = 8

// Violation is one way a value fails its schema.
type Violation struct {
	// Pointer is the JSON Pointer of the offending value ("" is the root).
	Pointer string
	// Problem says what is wrong and what was expected.
	Problem string
}

// ValidationError lists the violations of one value, in document order
// (object properties sorted by name), at most [MaxViolations].
type ValidationError struct {
	Violations []Violation
	// More counts violations beyond the reported ones.
	More int
}

// Error returns every violation as "at POINTER: PROBLEM", joined by "; ".
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, v := range e.Violations {
		if i > 0 {
			b.WriteString("; ")
		}
		p := v.Pointer
		if p == "" {
			p = "/"
		}
		fmt.Fprintf(&b, "at %s: %s", p, v.Problem)
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "; and %d more", e.More)
	}
	return b.String()
}

// Validate checks the JSON document doc against s. It returns a
// *[ValidationError] when doc does not match, or a plain error when doc is
// not JSON.
func (s *Schema) Validate(doc []byte) error {
	v, err := decode(doc)
	if err != nil {
		return fmt.Errorf("jsonschema: value is not valid JSON: %w", err)
	}
	e := &ValidationError{}
	s.check(v, "", e)
	if len(e.Violations) == 0 {
		return nil
	}
	return e
}

func (e *ValidationError) add(at, format string, args ...any) {
	if len(e.Violations) >= MaxViolations {
		e.More++
		return
	}
	e.Violations = append(e.Violations, Violation{Pointer: at, Problem: fmt.Sprintf(format, args...)})
}

func (s *Schema) check(v any, at string, e *ValidationError) {
	if len(s.types) > 0 && !s.typeMatches(v) {
		e.add(at, "must be %s, got %s", strings.Join(s.types, " or "), describe(v))
		return
	}
	if s.constant != nil && !equal(v, *s.constant) {
		e.add(at, "must be %s, got %s", compact(*s.constant), describe(v))
	}
	if len(s.enum) > 0 && !slices.ContainsFunc(s.enum, func(x any) bool { return equal(v, x) }) {
		opts := make([]string, len(s.enum))
		for i, x := range s.enum {
			opts[i] = compact(x)
		}
		e.add(at, "must be one of %s, got %s", strings.Join(opts, ", "), describe(v))
	}
	if len(s.anyOf) > 0 {
		ok := false
		for _, sub := range s.anyOf {
			probe := &ValidationError{}
			sub.check(v, at, probe)
			if len(probe.Violations) == 0 {
				ok = true
				break
			}
		}
		if !ok {
			e.add(at, "matches none of the %d allowed alternatives (anyOf)", len(s.anyOf))
		}
	}
	switch t := v.(type) {
	case map[string]any:
		s.checkObject(t, at, e)
	case []any:
		if s.minItems != nil && len(t) < *s.minItems {
			e.add(at, "must have at least %d items, got %d", *s.minItems, len(t))
		}
		if s.maxItems != nil && len(t) > *s.maxItems {
			e.add(at, "must have at most %d items, got %d", *s.maxItems, len(t))
		}
		if s.items != nil {
			for i, x := range t {
				s.items.check(x, fmt.Sprintf("%s/%d", at, i), e)
			}
		}
	case string:
		n := utf8.RuneCountInString(t)
		if s.minLength != nil && n < *s.minLength {
			e.add(at, "must be at least %d characters long, got %d", *s.minLength, n)
		}
		if s.maxLength != nil && n > *s.maxLength {
			e.add(at, "must be at most %d characters long, got %d", *s.maxLength, n)
		}
		if s.pattern != nil && !s.pattern.MatchString(t) {
			e.add(at, "must match the pattern %q, got %s", s.pattern.String(), describe(v))
		}
	case json.Number:
		f, _ := t.Float64()
		switch {
		case s.minimum != nil && f < *s.minimum:
			e.add(at, "must be >= %v, got %s", *s.minimum, t)
		case s.exclusiveMinimum != nil && f <= *s.exclusiveMinimum:
			e.add(at, "must be > %v, got %s", *s.exclusiveMinimum, t)
		}
		switch {
		case s.maximum != nil && f > *s.maximum:
			e.add(at, "must be <= %v, got %s", *s.maximum, t)
		case s.exclusiveMaximum != nil && f >= *s.exclusiveMaximum:
			e.add(at, "must be < %v, got %s", *s.exclusiveMaximum, t)
		}
	}
}

func (s *Schema) checkObject(obj map[string]any, at string, e *ValidationError) {
	for _, r := range s.required {
		if _, ok := obj[r]; !ok {
			e.add(at, "missing required property %q", r)
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		sub, declared := s.properties[k]
		switch {
		case declared:
			sub.check(obj[k], at+"/"+escape(k), e)
		case s.noAdditional:
			e.add(at+"/"+escape(k), "unknown property %q; allowed: %s", k, s.allowed())
		case s.additional != nil:
			s.additional.check(obj[k], at+"/"+escape(k), e)
		}
	}
}

func (s *Schema) allowed() string {
	names := make([]string, 0, len(s.properties))
	for n := range s.properties {
		names = append(names, n)
	}
	if len(names) == 0 {
		return "none"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func (s *Schema) typeMatches(v any) bool {
	k := kind(v)
	for _, t := range s.types {
		if t == k || (t == "number" && k == "integer") {
			return true
		}
	}
	return false
}

// describe renders a value for an error message, bounded.
func describe(v any) string {
	c := compact(v)
	if len(c) > 60 {
		c = c[:57] + "..."
	}
	return kind(v) + " " + c
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// equal compares decoded JSON values, numbers by value.
func equal(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, _ := x.Float64()
		fy, _ := y.Float64()
		return fx == fy
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, equal)
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	}
	return a == b
}
