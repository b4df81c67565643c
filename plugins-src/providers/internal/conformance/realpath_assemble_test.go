package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
)

// bridgeTarget maps a request case's endpoint to the provider the plugin
// declares and, for a named OpenAI-compatible server, its quirk flags as
// the JSON data a user's configuration would hold.
func bridgeTarget(t *testing.T, endpoint string) (string, json.RawMessage) {
	t.Helper()
	switch endpoint {
	case "anthropic", "openai", "openai-chat", "google", "openai-compatible":
		return endpoint, nil
	}
	e, err := endpoints.Lookup(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	q, err := json.Marshal(e.Quirks)
	if err != nil {
		t.Fatal(err)
	}
	return "openai-compatible", q
}

// assemble folds model events into the assistant message, the way the
// agent loop keeps it in the history.
func assemble(t *testing.T, evs []model.StreamEvent) model.AssistantMessage {
	t.Helper()
	var m model.AssistantMessage
	args := map[int]*strings.Builder{}
	for _, e := range evs {
		switch e := e.(type) {
		case model.Start:
			m.Provider, m.Model, m.ResponseID = e.Provider, e.Model, e.ResponseID
		case model.TextDelta:
			if e.Index == len(m.Content) {
				m.Content = append(m.Content, model.Text{Producer: m.Provider})
			}
			b := m.Content[e.Index].(model.Text)
			b.Text += e.Text
			b.Signature = append(b.Signature, e.Signature...)
			m.Content[e.Index] = b
		case model.ThinkingDelta:
			if e.Index == len(m.Content) {
				m.Content = append(m.Content, model.Thinking{Producer: m.Provider})
			}
			b := m.Content[e.Index].(model.Thinking)
			b.Text += e.Text
			b.Signature = append(b.Signature, e.Signature...)
			b.Encrypted = append(b.Encrypted, e.Encrypted...)
			b.Redacted = b.Redacted || e.Redacted
			m.Content[e.Index] = b
		case model.ToolCallStart:
			m.Content = append(m.Content, model.ToolCall{ID: e.ID, Name: e.Name, Producer: m.Provider})
			args[e.Index] = &strings.Builder{}
		case model.ToolCallDelta:
			args[e.Index].WriteString(e.Arguments)
		case model.ToolCallEnd:
			b := m.Content[e.Index].(model.ToolCall)
			b.Signature = append(b.Signature, e.Signature...)
			m.Content[e.Index] = b
		case model.Done:
			m.Stop, m.Usage = e.Reason, e.Usage
		case model.StreamError:
			t.Fatalf("history stream failed: %v", e.Err)
		}
	}
	for i, sb := range args {
		b := m.Content[i].(model.ToolCall)
		b.Arguments = json.RawMessage(sb.String())
		if strings.TrimSpace(sb.String()) == "" {
			b.Arguments = json.RawMessage("{}")
		}
		m.Content[i] = b
	}
	return m
}
