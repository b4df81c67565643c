package providers

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
)

// TestRealPathHandoff switches a session between providers through the
// bridge: a recorded thinking + tool-call stream is decoded by one
// provider's bridge, and the next request goes to another provider. The
// request the loopback server receives carries none of the first vendor's
// signatures or encrypted reasoning (unless it goes back to the producer),
// keeps the reasoning text, and keeps the tool result.
func TestRealPathHandoff(t *testing.T) {
	root := fixtureRoot
	histories := []struct{ fixture, provider string }{
		{"anthropic/thinking-tool-call.sse", "anthropic"},
		{"google/thinking-tool-call.sse", "google"},
		{"openai-responses/reasoning-summary-tool-call.sse", "openai"},
		{"openai-compatible/kimi-reasoning-details-tool-call.sse", "openai-compatible"},
	}
	targets := []struct{ provider, model string }{
		{"anthropic", "claude-sonnet-4-5"},
		{"openai", "gpt-5"},
		{"openai-chat", "gpt-5"},
		{"google", "gemini-3-pro-preview"},
	}
	srv := newLoopback(t)
	for _, h := range histories {
		srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(root, h.fixture))})
		first := bridge(t, h.provider, srv.URL, nil)
		user := model.UserText("What's the weather in Florence, Italy?")
		msg := assemble(t, pull(t, first, &model.Request{Model: "m0", Messages: []model.Message{user}}))
		var opaque [][]byte
		var thinkingText string
		for _, c := range msg.Content {
			switch c := c.(type) {
			case model.Thinking:
				opaque = append(opaque, c.Signature, c.Encrypted)
				thinkingText = c.Text
			case model.ToolCall:
				opaque = append(opaque, c.Signature)
			case model.Text:
				opaque = append(opaque, c.Signature)
			}
		}
		calls := msg.ToolCalls()
		if len(calls) == 0 {
			t.Fatalf("%s decoded through the bridge has no tool call", h.fixture)
		}
		history := []model.Message{user, msg, model.ToolResultMessage{CallID: calls[0].ID, Name: calls[0].Name,
			Content: []model.Content{model.Text{Text: "40 C"}}, Mutation: model.MutationNotApplied}}
		for _, tg := range targets {
			t.Run(h.fixture+"→"+tg.provider+"/"+tg.model, func(t *testing.T) {
				next := bridge(t, tg.provider, srv.URL, func(c *provider.Config) { c.BaseURLFlag = srv.URL + "/v1" })
				srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(root, "anthropic", "text.sse"))})
				pull(t, next, &model.Request{Model: tg.model, Messages: history})
				body := srv.last().raw
				own := tg.provider == h.provider && (tg.provider != "openai" || msg.Model == tg.model)
				for _, o := range opaque {
					if present := bytes.Contains(body, o); len(o) > 8 && present != own {
						t.Errorf("opaque payload %.20q… present=%v in the %s request, want %v", o, present, tg.provider, own)
					}
				}
				if thinkingText != "" && !bytes.Contains(body, []byte(thinkingText[:20])) && !(own && h.provider == "google") {
					t.Errorf("the reasoning text %.20q… was lost", thinkingText)
				}
				if !bytes.Contains(body, []byte("40 C")) {
					t.Errorf("the tool result was lost")
				}
			})
		}
	}
}
