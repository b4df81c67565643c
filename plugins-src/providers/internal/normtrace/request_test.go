package normtrace_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

// strangeMessage and strangeContent are types outside norm's closed sets;
// only a test can make them.
type strangeMessage struct{ norm.Message }
type strangeContent struct{ norm.Content }

// everyPart is a request with every message and block type and every
// field set.
func everyPart() *norm.Request {
	return &norm.Request{Model: "m", System: "be terse\n", MaxTokens: 4096, Thinking: norm.ThinkingHigh, ThinkingBudget: 2048, CacheKey: "s1",
		Messages: []norm.Message{
			norm.UserMessage{Content: []norm.Content{norm.Text{Text: "hi <&>", Signature: []byte("\x00sig"), Producer: "google", ItemID: "msg_1", Phase: "commentary"},
				norm.Image{MediaType: "image/png", Data: []byte{0x89, 'P', 0}}}},
			norm.AssistantMessage{Provider: "anthropic", Model: "claude", ResponseID: "msg_2", Stop: norm.StopToolUse, StopRaw: "tool_use",
				Usage: norm.Usage{Input: norm.Known(3)}, Error: &norm.Error{Kind: norm.ErrServer, Message: "boom"},
				Content: []norm.Content{
					norm.Thinking{Text: "hm", Signature: []byte("EtY"), Encrypted: []byte("gA"), Redacted: true, Format: "f", ItemID: "rs_1", Producer: "anthropic"},
					norm.ToolCall{ID: "call_1", Name: "read", Arguments: json.RawMessage(`{"path":"a"}`), ArgumentsError: "e", Signature: []byte("ts"), ItemID: "fc_1", Producer: "anthropic"},
					norm.Other{Type: "server_tool_use", Raw: json.RawMessage(`{"type":"server_tool_use"}`), Producer: "anthropic"},
					strangeContent{},
				}},
			norm.ToolResultMessage{CallID: "call_1", Name: "read", IsError: true, Content: []norm.Content{norm.Text{Text: "é"}}},
			strangeMessage{},
		},
		Tools: []norm.Tool{{Name: "read", Description: "Reads.", Parameters: json.RawMessage(` {"type": "object"} `)}, {Name: "bad", Parameters: json.RawMessage(`{`)}},
	}
}

// TestRequestGolden holds RequestTrace and Document of a request with
// every part to testdata/request.golden and testdata/document.golden.
func TestRequestGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		got  string
	}{
		{"request", normtrace.RequestTrace(everyPart())},
		{"request-empty", normtrace.RequestTrace(&norm.Request{})},
		{"document", string(normtrace.Document(everyPart())) + "\n"},
		{"document-empty", string(normtrace.Document(&norm.Request{})) + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(tt.got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v; run go test -update to write it", err)
			}
			if tt.got != string(want) {
				t.Fatalf("%s differs from %s (check it, then run go test -update):\n got:\n%s\nwant:\n%s", tt.name, golden, tt.got, want)
			}
		})
	}
}

// TestDocumentShape: the document is valid JSON with the request
// document's keys, frames a signature that starts with a NUL byte, and
// writes an Other block as a text block whose signature names its type.
func TestDocumentShape(t *testing.T) {
	doc := normtrace.Document(everyPart())
	var d struct {
		System   string `json:"system"`
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type      string `json:"type"`
				Signature []byte `json:"signature"`
			} `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Parameters json.RawMessage `json:"parameters"`
		} `json:"tools"`
		MaxOutputTokens int    `json:"max_output_tokens"`
		Thinking        string `json:"thinking"`
		ThinkingBudget  int    `json:"thinking_budget"`
		CacheKey        string `json:"cache_key"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("the document is not valid JSON: %v\n%s", err, doc)
	}
	if d.System != "be terse\n" || d.MaxOutputTokens != 4096 || d.Thinking != "high" || d.ThinkingBudget != 2048 || d.CacheKey != "s1" {
		t.Errorf("request fields: %+v", d)
	}
	roles := []string{}
	for _, m := range d.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, ","); got != "user,assistant,tool_result,?" {
		t.Errorf("roles %s", got)
	}
	if sig := string(d.Messages[0].Content[0].Signature); sig != "\x00\x00\x00sig" {
		t.Errorf("a signature starting with NUL is written %q, want it fenced", sig)
	}
	other := d.Messages[1].Content[2]
	if m, raw := norm.UnpackMeta(other.Signature); other.Type != "text" || m.Other != "server_tool_use" || string(raw) != `{"type":"server_tool_use"}` {
		t.Errorf("the other block is written as %q with %+v, %q", other.Type, m, raw)
	}
	if p := string(d.Tools[0].Parameters); p != `{"type": "object"}` {
		t.Errorf("parameters %q, want them without the space around", p)
	}
	if p := string(d.Tools[1].Parameters); p != `"{"` {
		t.Errorf("invalid parameters %q, want a JSON string", p)
	}
}
