package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smith-agent/smith/wit/contrib"
)

// TestCatalog: seven tools, each with a description and a JSON Schema
// object whose required properties exist and which admits no others.
func TestCatalog(t *testing.T) {
	c, err := plugin{}.DeclareContributions(contrib.DeclareOptions{WorldVersion: "0.0.0", Configuration: "{}"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range c.Tools {
		names = append(names, d.Name)
		var s struct {
			Type                 string                     `json:"type"`
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal([]byte(d.InputSchema), &s); err != nil {
			t.Errorf("%s: schema is not JSON: %v", d.Name, err)
			continue
		}
		if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s: schema %s must be a closed object", d.Name, d.InputSchema)
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				t.Errorf("%s: required %q is not a property", d.Name, r)
			}
		}
		if len(d.Description) < 40 {
			t.Errorf("%s: description %q is too thin for a model", d.Name, d.Description)
		}
	}
	if got := strings.Join(names, " "); got != "read write edit bash find grep ls" {
		t.Errorf("tools = %s", got)
	}
	if _, err := (plugin{}).DeclareContributions(contrib.DeclareOptions{WorldVersion: "9.0.0"}); err == nil || !strings.Contains(err.Error(), "host offers 9.0.0") {
		t.Errorf("another world version = %v", err)
	}
}

func TestBound(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		limit int
		want  string // prefix of the result
		cut   bool
	}{
		{name: "within", in: "short", limit: 100, want: "short"},
		{name: "no-limit", in: strings.Repeat("a", 1000), limit: 0, want: strings.Repeat("a", 1000)},
		{name: "cut-with-notice", in: strings.Repeat("a", 1000), limit: 200, want: "aaaa", cut: true},
		{name: "rune-boundary", in: strings.Repeat("é", 500), limit: 151, want: "éé", cut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bound(tt.in, tt.limit)
			if !strings.HasPrefix(got, tt.want) || (!tt.cut && got != tt.in) {
				t.Fatalf("bound = %q", got)
			}
			if tt.cut {
				if len(got) > tt.limit || !utf8.ValidString(got) || !strings.Contains(got, "[output truncated: 1000 bytes exceed the "+itoa(tt.limit)+"-byte tool output limit") {
					t.Errorf("bound = %q (%d bytes); want ≤ %d valid UTF-8 bytes ending in the notice", got, len(got), tt.limit)
				}
			}
		})
	}
}

// FuzzBound: the bounded output never exceeds the limit, keeps valid UTF-8
// valid, is a prefix of the input plus the notice, and is the input itself
// when it fits.
func FuzzBound(f *testing.F) {
	f.Add("hello\nworld\n", 8)
	f.Add(strings.Repeat("é\n", 300), 150)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit = limit % 4096
		got := bound(s, limit)
		if limit <= 0 || len(s) <= limit {
			if got != s {
				t.Fatalf("bound(%q, %d) = %q; want the input", s, limit, got)
			}
			return
		}
		i := strings.LastIndex(got, "\n[output truncated: ")
		if i < 0 || !strings.HasPrefix(s, got[:i]) {
			t.Fatalf("bound(%q, %d) = %q; want a prefix and the notice", s, limit, got)
		}
		if limit >= 200 && len(got) > limit {
			t.Fatalf("bound(%q, %d) is %d bytes", s, limit, len(got))
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("bound(%q, %d) = %q is not valid UTF-8", s, limit, got)
		}
	})
}
