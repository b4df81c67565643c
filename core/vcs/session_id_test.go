package vcs

import (
	"strings"
	"testing"
)

func TestCheckSession(t *testing.T) {
	tests := []struct {
		name, id string
		ok       bool
	}{
		{name: "ulid", id: "01JEXAMPLE0000000000000000", ok: true},
		{name: "punctuation inside", id: "a_b.c-d", ok: true},
		{name: "longest", id: strings.Repeat("a", 128), ok: true},
		{name: "empty", id: ""},
		{name: "too long", id: strings.Repeat("a", 129)},
		{name: "leading dot", id: ".a"},
		{name: "leading dash", id: "-a"},
		{name: "slash", id: "a/b"},
		{name: "double dot", id: "a..b"},
		{name: "trailing dot", id: "a."},
		{name: "lock suffix", id: "a.lock"},
		{name: "non-ascii", id: "é"},
		{name: "space", id: "a b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkSession(tt.id); (err == nil) != tt.ok {
				t.Errorf("checkSession(%q) = %v, want ok=%v", tt.id, err, tt.ok)
			}
		})
	}
}
