package handoff

import (
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

func call(id, name string) norm.ToolCall {
	return norm.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(`{}`)}
}

func result(id, name, text string) norm.ToolResultMessage {
	return norm.ToolResultMessage{CallID: id, Name: name, Content: []norm.Content{norm.Text{Text: text}}}
}

func TestTransform(t *testing.T) {
	anthropicTurn := norm.AssistantMessage{Provider: "anthropic", Model: "claude", Content: []norm.Content{
		norm.Thinking{Text: "let me look", Signature: []byte("EtYDsig"), Producer: "anthropic"},
		norm.Thinking{Redacted: true, Encrypted: []byte("EmwKredacted"), Producer: "anthropic"},
		norm.Other{Type: "server_tool_use", Raw: json.RawMessage(`{"type":"server_tool_use"}`)},
		norm.Text{Text: "Reading."},
		call("toolu_01", "read"),
	}}
	geminiTurn := norm.AssistantMessage{Provider: "google", Model: "gemini-3", Content: []norm.Content{
		norm.Text{Text: "ok", Signature: []byte("textsig")},
		norm.ToolCall{ID: "9d532gc9", Name: "read", Arguments: json.RawMessage(`{}`), Signature: []byte("callsig")},
	}}
	responsesTurn := norm.AssistantMessage{Provider: "openai", Model: "gpt-5", Content: []norm.Content{
		norm.Thinking{Text: "summary", Encrypted: []byte("gAAAA"), ItemID: "rs_1"},
		norm.ToolCall{ID: "call_abc|fc_0123456789012345678901234567890123456789012345678901234567890123", Name: "read",
			Arguments: json.RawMessage(`{}`), ItemID: "fc_1"},
	}}
	tests := []struct {
		name   string
		in     []norm.Message
		target Target
		want   []norm.Message
	}{
		{
			name:   "same provider is unchanged",
			in:     []norm.Message{norm.UserText("q"), anthropicTurn, result("toolu_01", "read", "x")},
			target: Target{Provider: "anthropic", API: "anthropic", Model: "claude"},
			want:   []norm.Message{norm.UserText("q"), anthropicTurn, result("toolu_01", "read", "x")},
		},
		{
			name:   "anthropic thinking to openai chat becomes text, redacted and server blocks dropped",
			in:     []norm.Message{anthropicTurn, result("toolu_01", "read", "x")},
			target: Target{Provider: "openai", API: "openai-chat", Model: "gpt-5"},
			want: []norm.Message{
				norm.AssistantMessage{Provider: "anthropic", Model: "claude", Content: []norm.Content{
					norm.Text{Text: "let me look\n\n"}, norm.Text{Text: "Reading."}, call("toolu_01", "read")}},
				result("toolu_01", "read", "x")},
		},
		{
			name:   "gemini signatures dropped for anthropic",
			in:     []norm.Message{geminiTurn, result("9d532gc9", "read", "x")},
			target: Target{Provider: "anthropic", API: "anthropic"},
			want: []norm.Message{
				norm.AssistantMessage{Provider: "google", Model: "gemini-3", Content: []norm.Content{
					norm.Text{Text: "ok"}, call("9d532gc9", "read")}},
				result("9d532gc9", "read", "x")},
		},
		{
			name:   "foreign calls to gemini carry the skip sentinel",
			in:     []norm.Message{norm.AssistantMessage{Provider: "anthropic", Content: []norm.Content{call("toolu_01", "read")}}, result("toolu_01", "read", "x")},
			target: Target{Provider: "google", API: "gemini"},
			want: []norm.Message{
				norm.AssistantMessage{Provider: "anthropic", Content: []norm.Content{
					norm.ToolCall{ID: "toolu_01", Name: "read", Arguments: json.RawMessage(`{}`), Signature: []byte(SkipSignature)}}},
				result("toolu_01", "read", "x")},
		},
		{
			name:   "encrypted reasoning is only replayed to the model that made it",
			in:     []norm.Message{responsesTurn, result(responsesTurn.Content[1].(norm.ToolCall).ID, "read", "x")},
			target: Target{Provider: "openai", API: "openai-responses", Model: "gpt-5-mini"},
			want: []norm.Message{
				norm.AssistantMessage{Provider: "openai", Model: "gpt-5", Content: []norm.Content{
					norm.Text{Text: "summary\n\n"},
					norm.ToolCall{ID: "call_abc_fc_0123456789012345678901234567890123456789012_b10ebcd2", Name: "read", Arguments: json.RawMessage(`{}`), ItemID: "fc_1"}}},
				result("call_abc_fc_0123456789012345678901234567890123456789012_b10ebcd2", "read", "x")},
		},
		{
			name: "responses message item ids and phases stay with openai",
			in: []norm.Message{norm.AssistantMessage{Provider: "openai", Model: "gpt-5", Content: []norm.Content{
				norm.Text{Text: "Checking.", ItemID: "msg_1", Phase: "commentary"}}}},
			target: Target{Provider: "openai", API: "openai-responses", Model: "gpt-5"},
			want: []norm.Message{norm.AssistantMessage{Provider: "openai", Model: "gpt-5", Content: []norm.Content{
				norm.Text{Text: "Checking.", ItemID: "msg_1", Phase: "commentary"}}}},
		},
		{
			name: "responses message item ids and phases dropped for another provider",
			in: []norm.Message{norm.AssistantMessage{Provider: "openai", Model: "gpt-5", Content: []norm.Content{
				norm.Text{Text: "Checking.", ItemID: "msg_1", Phase: "commentary"}}}},
			target: Target{Provider: "openrouter", API: "openai-chat"},
			want: []norm.Message{norm.AssistantMessage{Provider: "openai", Model: "gpt-5", Content: []norm.Content{
				norm.Text{Text: "Checking."}}}},
		},
		{
			name: "server blocks dropped for another provider leave nothing behind",
			in: []norm.Message{norm.AssistantMessage{Provider: "anthropic", Content: []norm.Content{
				norm.Other{Type: "web_search_tool_result", Raw: json.RawMessage(`{"type":"web_search_tool_result"}`), Producer: "anthropic"}}}},
			target: Target{Provider: "google", API: "gemini"},
			want:   []norm.Message{norm.AssistantMessage{Provider: "anthropic", Content: []norm.Content{}}},
		},
		{
			name:   "kimi ids sanitized for anthropic, results follow",
			in:     []norm.Message{norm.AssistantMessage{Provider: "openrouter", Content: []norm.Content{call("functions.weather:0", "weather")}}, result("functions.weather:0", "weather", "40 C")},
			target: Target{Provider: "anthropic", API: "anthropic"},
			want: []norm.Message{
				norm.AssistantMessage{Provider: "openrouter", Content: []norm.Content{call("functions_weather_0", "weather")}},
				result("functions_weather_0", "weather", "40 C")},
		},
		{
			name: "ids that sanitize alike stay distinct",
			in: []norm.Message{norm.AssistantMessage{Provider: "x", Content: []norm.Content{call("a.b", "f"), call("a:b", "f")}},
				result("a.b", "f", "1"), result("a:b", "f", "2")},
			target: Target{Provider: "anthropic", API: "anthropic"},
			want: []norm.Message{
				norm.AssistantMessage{Provider: "x", Content: []norm.Content{call("a_b", "f"), call("a_b_08bd8540", "f")}},
				result("a_b", "f", "1"), result("a_b_08bd8540", "f", "2")},
		},
		{
			name:   "mistral takes exactly nine letters or digits",
			in:     []norm.Message{norm.AssistantMessage{Provider: "anthropic", Content: []norm.Content{call("toolu_01XYZ", "read"), call("gSIMJiOkT", "ls")}}, result("toolu_01XYZ", "read", "x"), result("gSIMJiOkT", "ls", "y")},
			target: Target{Provider: "mistral", API: "openai-chat", IDStyle: "mistral"},
			want: []norm.Message{
				norm.AssistantMessage{Provider: "anthropic", Content: []norm.Content{call("53f8J0Ela", "read"), call("gSIMJiOkT", "ls")}},
				result("53f8J0Ela", "read", "x"), result("gSIMJiOkT", "ls", "y")},
		},
		{
			name: "interrupted call gets an error result; a stray result becomes user text; a failed turn is dropped",
			in: []norm.Message{
				norm.AssistantMessage{Provider: "anthropic", Content: []norm.Content{call("c1", "read"), call("c2", "bash")}},
				result("c1", "read", "ok"),
				norm.UserText("next"),
				result("zz", "grep", "stray"),
				norm.AssistantMessage{Provider: "anthropic", Content: []norm.Content{call("c3", "read")}, Error: &norm.Error{Kind: norm.ErrTruncated}},
			},
			target: Target{Provider: "anthropic", API: "anthropic"},
			want: []norm.Message{
				norm.AssistantMessage{Provider: "anthropic", Content: []norm.Content{call("c1", "read"), call("c2", "bash")}},
				result("c1", "read", "ok"),
				norm.ToolResultMessage{CallID: "c2", Name: "bash", IsError: true, Content: []norm.Content{norm.Text{Text: "The tool call was not executed (the turn was interrupted)."}}},
				norm.UserText("next"),
				norm.UserText("Result of an earlier grep tool call:\nstray"),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Transform(tt.in, tt.target)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%#v\nwant\n%#v", got, tt.want)
			}
			rule := idRules[tt.target.API]
			if tt.target.IDStyle == "mistral" {
				rule.allowed, rule.max = regexp.MustCompile(`[^a-zA-Z0-9]`), 9
			}
			for _, m := range got {
				var ids []string
				switch m := m.(type) {
				case norm.AssistantMessage:
					for _, c := range m.ToolCalls() {
						ids = append(ids, c.ID)
					}
				case norm.ToolResultMessage:
					ids = append(ids, m.CallID)
				}
				for _, id := range ids {
					if rule.allowed.MatchString(id) || len(id) > rule.max {
						t.Errorf("id %q breaks the %s rules (max %d)", id, tt.target.API, rule.max)
					}
				}
			}
		})
	}
}
