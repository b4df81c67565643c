package runtime

import (
	"errors"
	"strings"
	"testing"
)

// TestProviderOptionsFromTheCodec: a provider block's quirks are checked
// against the options the shipped codec declares (core knows none of
// them): a valid block opens, a misspelt option, a wrong value or a block
// on a codec without options fails before any request, naming the file,
// line and column and what to write instead.
func TestProviderOptionsFromTheCodec(t *testing.T) {
	tests := []struct {
		name   string
		quirks string
		api    string
		want   []string // empty: opens
	}{
		{name: "valid", api: "openai-compatible", quirks: `max-tokens-field "max_tokens"; no-stream-usage #true; max-tool-call-id-len 40`},
		{name: "misspelt", api: "openai-compatible", quirks: `no-stream-usag #true`,
			want: []string{"smith.kdl:5:14: provider.local.quirks.no-stream-usag: is not an option of the openai-compatible codec", "did you mean no-stream-usage?"}},
		{name: "wrong value", api: "openai-chat", quirks: `thinking-format "openia"`,
			want: []string{`smith.kdl:5:30: provider.local.quirks.thinking-format: "openia" is not one of openai, openrouter, enable_thinking, none`}},
		{name: "codec without options", api: "anthropic", quirks: `no-strict #true`,
			want: []string{"smith.kdl:5:5: provider.local.quirks: is set, but the anthropic codec takes no options; remove the block"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.config(`provider "local" {
    api "` + tt.api + `"
    base-url "http://127.0.0.1:9/v1"
    credential key="sk-local"
    quirks { ` + tt.quirks + ` }
}
`)
			rt := w.open(map[string]string{"model": "local/q"}, nil)
			s, err := rt.NewSession(t.Context(), NewSessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			err = s.Prepare(t.Context())
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("prepare: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrUsage) {
				t.Fatalf("prepare: %v; want a usage error", err)
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q\nwant %q", err, want)
				}
			}
			if err := rt.CheckProviders(t.Context()); err == nil {
				t.Error("CheckProviders passed a block Prepare refused")
			}
		})
	}
}
