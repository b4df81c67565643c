package conformance

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/plugins-src/providers/internal/handoff"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// TestHandoffRecorded switches a recorded conversation (decoded from each
// vendor's thinking + tool-call stream) to every other provider: the built
// request carries none of the first vendor's signatures or encrypted
// reasoning, still carries its reasoning text and its tool result.
func TestHandoffRecorded(t *testing.T) {
	root := fixtures.Root(t)
	histories := []struct {
		fixture  string
		api      codec.API
		provider string
	}{
		{"anthropic/thinking-tool-call.sse", codec.Anthropic, "anthropic"},
		{"google/thinking-tool-call.sse", codec.Gemini, "google"},
		{"openai-responses/reasoning-summary-tool-call.sse", codec.OpenAIResponses, "openai"},
		{"openai-compatible/openrouter-anthropic-reasoning-tool-call.sse", codec.OpenAIChat, "openrouter"},
		{"openai-compatible/kimi-reasoning-details-tool-call.sse", codec.OpenAIChat, "openai-compatible"},
	}
	// Producer tags name provider and API: the same vendor's other API is
	// foreign (Chat Completions cannot take encrypted reasoning back).
	targets := []struct {
		endpoint string
		provider string
		model    string
	}{
		{"anthropic", "anthropic", "claude-sonnet-4-5"},
		{"openai", "openai", "gpt-5.1-codex-max"},
		{"openai", "openai", "gpt-5"},
		{"openai-chat", "openai-chat", "gpt-5"},
		{"google", "google", "gemini-3-pro-preview"},
		{"openrouter", "openrouter", "anthropic/claude-haiku-4.5"},
	}
	for _, h := range histories {
		body := mustRead(t, filepath.Join(root, h.fixture))
		d, err := codec.NewDecoder(h.api, h.provider)
		if err != nil {
			t.Fatal(err)
		}
		var asm norm.Assembler
		for _, e := range decodeChunks(d, [][]byte{body}) {
			if err := asm.Add(e); err != nil {
				t.Fatal(err)
			}
		}
		msg := asm.Message()
		var opaque [][]byte
		var thinkingText string
		for _, c := range msg.Content {
			switch c := c.(type) {
			case norm.Thinking:
				opaque = append(opaque, c.Signature, c.Encrypted)
				thinkingText = c.Text
			case norm.ToolCall:
				opaque = append(opaque, c.Signature)
			case norm.Text:
				opaque = append(opaque, c.Signature)
			}
		}
		call := msg.ToolCalls()[0]
		history := []norm.Message{norm.UserText("What's the weather in Florence, Italy?"), msg,
			norm.ToolResultMessage{CallID: call.ID, Name: call.Name, Content: []norm.Content{norm.Text{Text: "40 C"}}}}
		for _, tg := range targets {
			t.Run(h.fixture+"→"+tg.endpoint+"/"+tg.model, func(t *testing.T) {
				ep, _ := endpoints.Lookup(tg.endpoint)
				msgs := handoff.Transform(history, handoff.Target{Provider: tg.provider, API: ep.API, Model: tg.model})
				hr, err := codec.BuildRequest(codec.API(ep.API), &norm.Request{Model: tg.model, Messages: msgs, Tools: weatherTools}, ep.Quirks, ep.KeyEnv[0])
				if err != nil {
					t.Fatal(err)
				}
				own := tg.provider == h.provider && (ep.API != "openai-responses" || msg.Model == tg.model)
				for _, o := range opaque {
					if present := bytes.Contains(hr.Body, o); len(o) > 8 && present != own {
						t.Errorf("opaque payload %.20q… present=%v in the %s request, want %v", o, present, tg.endpoint, own)
					}
				}
				if thinkingText != "" && !bytes.Contains(hr.Body, []byte(thinkingText[:20])) && !(own && h.api == codec.Gemini) {
					t.Errorf("the reasoning text %.20q… was lost", thinkingText)
				}
				if !bytes.Contains(hr.Body, []byte("40 C")) {
					t.Errorf("the tool result was lost")
				}
			})
		}
	}
}
