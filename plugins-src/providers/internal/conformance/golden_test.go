package conformance

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/plugins-src/providers/internal/handoff"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// richConversation exercises what the recorded requests do not: images in
// user turns and tool results, an error result, several results merged
// into one turn, text after results, unsigned thinking.
func richConversation(producer string) []norm.Message {
	png := []byte{0x89, 'P', 'N', 'G', 0x0d, 0x0a}
	return []norm.Message{
		norm.UserMessage{Content: []norm.Content{norm.Text{Text: "What is in this picture, and list the files."}, norm.Image{MediaType: "image/png", Data: png}}},
		norm.AssistantMessage{Provider: producer, Model: "m", Content: []norm.Content{
			norm.Thinking{Text: "I should look.", Signature: []byte("sig-" + producer)},
			norm.Text{Text: "Let me check."},
			norm.ToolCall{ID: "call_1", Name: "ls", Arguments: json.RawMessage(`{"path":"."}`)},
			norm.ToolCall{ID: "call_2", Name: "read", Arguments: json.RawMessage(`{"path":"a.png"}`)},
		}},
		norm.ToolResultMessage{CallID: "call_1", Name: "ls", Content: []norm.Content{norm.Text{Text: "a.png\nb.go"}}},
		norm.ToolResultMessage{CallID: "call_2", Name: "read", IsError: true, Content: []norm.Content{norm.Text{Text: "binary file"}, norm.Image{MediaType: "image/png", Data: png}}},
		norm.UserText("Thanks. Summarize."),
	}
}

// TestBuildGolden builds the rich conversation for every endpoint, for the
// producer itself and handed off from another vendor, and compares the
// templates with testdata/TestBuildGolden/*.json (go test -update rewrites
// them).
func TestBuildGolden(t *testing.T) {
	for _, tc := range []struct {
		endpoint, provider, model string
		thinking                  norm.ThinkingLevel
	}{
		{"anthropic", "anthropic", "claude-sonnet-4-5", norm.ThinkingLow},
		{"openai", "openai", "gpt-5", norm.ThinkingHigh},
		{"openai-chat", "openai-chat", "gpt-5", norm.ThinkingMinimal},
		{"google", "google", "gemini-2.5-flash", norm.ThinkingMedium},
		{"google", "google", "gemini-3-pro-preview", norm.ThinkingLow},
		{"openrouter", "openrouter", "anthropic/claude-haiku-4.5", norm.ThinkingMedium},
		{"deepseek", "deepseek", "deepseek-reasoner", norm.ThinkingDefault},
		{"mistral", "mistral", "magistral-medium-2507", norm.ThinkingHigh},
	} {
		for _, from := range []string{tc.provider, "elsewhere"} {
			name := tc.endpoint + "-" + strings.ReplaceAll(tc.model, "/", "_") + "-from-" + from
			t.Run(name, func(t *testing.T) {
				ep, err := endpoints.Lookup(tc.endpoint)
				if err != nil {
					t.Fatal(err)
				}
				msgs := handoff.Transform(richConversation(from), handoff.Target{Provider: tc.provider, API: ep.API, Model: tc.model, IDStyle: ep.IDStyle})
				req := &norm.Request{Model: tc.model, System: "Be brief.", Messages: msgs, Tools: weatherTools,
					MaxTokens: 32000, Thinking: tc.thinking, CacheKey: "session-1"}
				hr, err := codec.BuildRequest(codec.API(ep.API), req, ep.Quirks, ep.KeyEnv[0])
				if err != nil {
					t.Fatal(err)
				}
				var body any
				if err := json.Unmarshal(hr.Body, &body); err != nil {
					t.Fatalf("the body is not JSON: %v", err)
				}
				got, _ := json.MarshalIndent(map[string]any{"method": hr.Method, "path": hr.Path, "headers": hr.Headers, "body": body}, "", "  ")
				golden(t, filepath.Join("testdata", "TestBuildGolden", name+".json"), append(got, '\n'))
			})
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("conformance: read golden file: %v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the built request (go test -update rewrites it after review):\n got:\n%s", path, got)
	}
}
