package jsonout_test

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// tool and block are struct shapes with the features request builders
// meet: field order differing from name order, renamed and unnamed
// fields, omitempty of each kind, a skipped field, raw JSON, nested
// structs, pointers and maps.
type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"input_schema"`
	Strict      bool            `json:"strict,omitempty"`
	Cache       *cache          `json:"cache_control,omitempty"`
	Internal    string          `json:"-"`
}

type cache struct {
	Type string `json:"type"`
}

type block struct {
	Type      string            `json:"type"`
	Index     int               `json:"index,omitempty"`
	Budget    uint              `json:"budget_tokens,omitempty"`
	Score     float64           `json:"score,omitempty"`
	Input     json.RawMessage   `json:"input,omitempty"`
	Tags      []string          `json:"tags,omitempty"`
	Meta      map[string]string `json:"meta,omitempty"`
	Parts     []any             `json:"parts"`
	Next      *block            `json:"next,omitempty"`
	Unnamed   int64
	Signature string `json:"signature,omitempty"`
}

// TestValues: Go values of the shapes the provider codecs marshal, encoded
// by Marshal and by the Writer (driven by the test's encoding of the same
// value), give the same bytes; a NaN or an invalid raw value anywhere
// fails both.
func TestValues(t *testing.T) {
	tests := []struct {
		name  string
		value any
	}{
		{"anthropic body", map[string]any{
			"model": "claude-x", "max_tokens": 4096, "stream": true,
			"system":   []any{map[string]any{"type": "text", "text": "Be <brief> & exact\u2028", "cache_control": map[string]any{"type": "ephemeral"}}},
			"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "hi\n\"there\""}}}},
			"tools": []any{map[string]any{"name": "read", "description": "Read a file.",
				"input_schema": json.RawMessage("{\n  \"type\": \"object\",\n  \"properties\": {\"path\": {\"type\": \"string\", \"pattern\": \"^<a&b>$\"}}\n}")}},
			"tool_choice": map[string]any{"type": "auto", "disable_parallel_tool_use": false},
			"thinking":    map[string]any{"type": "enabled", "budget_tokens": 2048},
		}},
		{"nil and empty slices", map[string]any{"nil": []any(nil), "empty": []any{}, "nil map": map[string]any(nil), "empty map": map[string]any{}, "nil raw": json.RawMessage(nil), "nil any": nil}},
		{"integers", []any{0, -1, math.MaxInt64, math.MinInt64, uint(math.MaxUint64), int64(-7), uint64(7)}},
		{"floats", []any{0.0, math.Copysign(0, -1), 1e21, 1e-7, 123.456, 5e-324, math.MaxFloat64, 1e20}},
		{"map[string]string", map[string]string{"b": "2", "a": "1", "\xff": "invalid key", "é": "<>", "": "empty key"}},
		{"struct omitempty all empty", block{}},
		{"struct omitempty all set", block{Type: "tool_use", Index: 3, Budget: 1024, Score: 0.25, Input: json.RawMessage(` {"a" : 1} `),
			Tags: []string{"x", "<y>"}, Meta: map[string]string{"z": "1", "a": "2"}, Parts: []any{}, Unnamed: -1, Signature: "sig==",
			Next: &block{Type: "text", Tags: []string{}, Meta: map[string]string{}}}},
		{"tools", []tool{{Name: "bash", Schema: json.RawMessage(`{"type":"object"}`), Strict: true, Cache: &cache{"ephemeral"}, Internal: "hidden"},
			{Name: "read", Description: "Reads.", Schema: nil}}},
		{"gemini schema", map[string]any{"type": "OBJECT", "properties": map[string]any{"n": map[string]any{"type": "NUMBER", "minimum": 0.5, "maximum": 1e30, "default": nil}},
			"required": []any{"n"}, "enum": []any{true, false, "x", 2.0}}},
		{"nested arrays", []any{[]any{[]any{}}, []any{nil, []string(nil)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.value)
			if err != nil {
				t.Fatalf("encoding/json refuses the test value: %v", err)
			}
			got, gotErr := rust(t, opValue, encode(nil, reflect.ValueOf(tt.value)))
			same(t, tt.name, want, err, got, gotErr)
		})
	}
}

// TestValueErrors: a value Marshal refuses (NaN or ±Inf, a raw value that
// is not one JSON value) fails the Writer too, however deep it sits.
func TestValueErrors(t *testing.T) {
	tests := []struct {
		name  string
		value any
	}{
		{"NaN in a map", map[string]any{"a": 1, "b": math.NaN()}},
		{"Inf in an array", []any{"x", math.Inf(-1)}},
		{"invalid raw in a struct", tool{Name: "t", Schema: json.RawMessage(`{"type":}`)}},
		{"empty raw", []any{json.RawMessage{}}},
		{"two raw values", map[string]any{"k": []any{json.RawMessage(`1 2`)}}},
		{"raw too deep", json.RawMessage(strings.Repeat("[", 10001) + strings.Repeat("]", 10001))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.value)
			if err == nil {
				t.Fatalf("encoding/json accepts the test value: %s", want)
			}
			got, gotErr := rust(t, opValue, encode(nil, reflect.ValueOf(tt.value)))
			same(t, tt.name, want, err, got, gotErr)
		})
	}
}
