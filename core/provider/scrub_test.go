package provider

import (
	"strings"
	"testing"
)

// TestScrub: a long secret is replaced wherever it occurs; a short one
// only where it stands as a whole token, so a one-letter test key leaves
// the words of an answer alone.
func TestScrub(t *testing.T) {
	long := "sk-ant-api03-" + strings.Repeat("Z", 20)
	tests := []struct {
		name    string
		in      string
		secrets []string
		want    string
	}{
		{name: "long key echoed", in: `{"error":"invalid x-api-key ` + long + `"}`, secrets: []string{long}, want: `{"error":"invalid x-api-key [redacted]"}`},
		{name: "long key inside a word", in: "pre" + long + "post", secrets: []string{long}, want: "pre[redacted]post"},
		{name: "short key in words", in: `{"text":"the box and x-ray"}`, secrets: []string{"x"}, want: `{"text":"the box and x-ray"}`},
		{name: "short key as a token", in: `{"key":"x","echo":"x"}`, secrets: []string{"x"}, want: `{"key":"[redacted]","echo":"[redacted]"}`},
		{name: "short key at the edges", in: "x x", secrets: []string{"x"}, want: "[redacted] [redacted]"},
		{name: "short key next to digits", in: "key1 1key key", secrets: []string{"key"}, want: "key1 1key [redacted]"},
		{name: "several secrets", in: "a " + long + " b", secrets: []string{"b", long}, want: "a [redacted] [redacted]"},
		{name: "empty secret", in: "abc", secrets: []string{""}, want: "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scrub(tt.in, tt.secrets); got != tt.want {
				t.Errorf("scrub = %q; want %q", got, tt.want)
			}
			if got := string(scrubBytes([]byte(tt.in), tt.secrets)); got != tt.want {
				t.Errorf("scrubBytes = %q; want %q", got, tt.want)
			}
		})
	}
}
