package providers

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
)

// sseData returns the JSON payload of every data: line of an SSE body.
func sseData(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n") {
		p, ok := strings.CutPrefix(line, "data:")
		if !ok || strings.TrimSpace(p) == "[DONE]" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(p), &m); err != nil {
			t.Fatalf("fixture data line %.80q: %v", p, err)
		}
		out = append(out, m)
	}
	return out
}

// anthropicServerBlocks reads, independently of the codec, the server-side
// blocks of a Messages stream as the API wants them back: the
// content_block_start block with its streamed input folded in.
func anthropicServerBlocks(t *testing.T, body []byte) []any {
	t.Helper()
	client := map[string]bool{"text": true, "thinking": true, "redacted_thinking": true, "tool_use": true}
	type open struct {
		block map[string]any
		input strings.Builder
	}
	blocks := map[float64]*open{}
	var out []any
	for _, ev := range sseData(t, body) {
		i, _ := ev["index"].(float64)
		switch ev["type"] {
		case "content_block_start":
			b := ev["content_block"].(map[string]any)
			if !client[b["type"].(string)] {
				blocks[i] = &open{block: b}
			}
		case "content_block_delta":
			if o, ok := blocks[i]; ok {
				d := ev["delta"].(map[string]any)
				if s, ok := d["partial_json"].(string); ok {
					o.input.WriteString(s)
				}
			}
		case "content_block_stop":
			o, ok := blocks[i]
			if !ok {
				continue
			}
			if o.input.Len() > 0 {
				var in any
				if err := json.Unmarshal([]byte(o.input.String()), &in); err != nil {
					t.Fatalf("server block %v input: %v", i, err)
				}
				o.block["input"] = in
			}
			out = append(out, o.block)
			delete(blocks, i)
		}
	}
	return out
}

// responsesItems reads, independently of the codec, the output items of a
// Responses stream (from response.output_item.done), by item id.
func responsesItems(t *testing.T, body []byte) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, ev := range sseData(t, body) {
		if ev["type"] == "response.output_item.done" {
			it := ev["item"].(map[string]any)
			out[it["id"].(string)] = it
		}
	}
	return out
}

// historyTurn decodes body through the real path of provider from and
// returns the conversation so far: the question, the assistant message and
// a "40 C" result for each of its tool calls.
func historyTurn(t *testing.T, srv *loopback, from string, body []byte) []model.Message {
	t.Helper()
	srv.respond(200, nil, [][]byte{body})
	user := model.UserText("What's the weather in Florence, Italy?")
	msg := assemble(t, pull(t, bridge(t, from, srv.URL, nil), &model.Request{Model: "m0", Messages: []model.Message{user}}))
	history := []model.Message{user, msg}
	for _, c := range msg.ToolCalls() {
		history = append(history, model.ToolResultMessage{CallID: c.ID, Name: c.Name,
			Content: []model.Content{model.Text{Text: "40 C"}}, Mutation: model.MutationNotApplied})
	}
	if len(msg.ToolCalls()) == 0 {
		history = append(history, model.UserText("Thanks."))
	}
	return history
}

// sendNext sends history to provider to (model: the history's own model
// when toModel is empty) through the real path and returns the body the
// server received, decoded.
func sendNext(t *testing.T, srv *loopback, to, toModel string, history []model.Message) (map[string]any, []byte) {
	t.Helper()
	if toModel == "" {
		toModel = history[1].(model.AssistantMessage).Model
	}
	srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(fixtureRoot, "anthropic", "text.sse"))})
	pull(t, bridge(t, to, srv.URL, func(c *provider.Config) { c.BaseURLFlag = srv.URL + "/v1" }), &model.Request{Model: toModel, Messages: history})
	raw := srv.last().raw
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("the request body is not JSON: %v", err)
	}
	return body, raw
}

// TestRealPathServerBlocks checks, through the real path (wasm codec,
// core/provider, httpengine, loopback server), that Anthropic's
// server-side blocks (server_tool_use, *_tool_result and any unknown block)
// survive the history: sent back unchanged to Anthropic, in their place in
// the assistant message, and dropped without a trace (no empty text block)
// when the conversation moves to another provider.
func TestRealPathServerBlocks(t *testing.T) {
	const fixture = "anthropic/server-tool-prompt-cache.sse"
	body := mustRead(t, filepath.Join(fixtureRoot, fixture))
	server := anthropicServerBlocks(t, body)
	if len(server) != 4 {
		t.Fatalf("%s has %d server blocks, want 4", fixture, len(server))
	}
	srv := newLoopback(t)
	history := historyTurn(t, srv, "anthropic", body)
	tests := []struct {
		name, to string
	}{
		{name: "back to anthropic", to: "anthropic"},
		{name: "handed off to openai responses", to: "openai"},
		{name: "handed off to openai chat", to: "openai-chat"},
		{name: "handed off to google", to: "google"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, raw := sendNext(t, srv, tc.to, "", history)
			if tc.to != "anthropic" {
				for _, s := range []string{"srvtoolu_", "bash_code_execution", `"text":""`, `"content":""`} {
					if bytes.Contains(raw, []byte(s)) {
						t.Errorf("the %s request carries %q: a server block (or an empty block in its place) was not dropped\n%s", tc.to, s, raw)
					}
				}
				if !bytes.Contains(raw, []byte("The sum of the squares")) {
					t.Errorf("the assistant's answer text was lost in the %s request", tc.to)
				}
				return
			}
			msgs, _ := got["messages"].([]any)
			if len(msgs) != 3 {
				t.Fatalf("the request has %d messages, want user, assistant, user:\n%s", len(msgs), raw)
			}
			content := msgs[1].(map[string]any)["content"].([]any)
			want := append(append([]any{}, server...), map[string]any{"type": "text",
				"text": "The sum of the squares of the numbers 1 through 12 is **650**."})
			if !reflect.DeepEqual(content, want) {
				gotJSON, _ := json.MarshalIndent(content, "", " ")
				wantJSON, _ := json.MarshalIndent(want, "", " ")
				t.Errorf("assistant content sent back:\n%s\nwant the stream's blocks unchanged:\n%s", gotJSON, wantJSON)
			}
		})
	}
}

// responsesStream composes a Responses stream (documented format) of one
// reasoning item, a commentary message and a function call. Without
// encrypted, the reasoning item carries no encrypted_content (a request
// without include, or store:true).
func responsesStream(encrypted bool) []byte {
	enc := func(v string) string {
		if !encrypted {
			return ""
		}
		return `,"encrypted_content":"` + v + `"`
	}
	events := []string{
		`{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","model":"gpt-5.1","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]` + enc("enc-added") + `}}`,
		`{"type":"response.reasoning_summary_text.delta","sequence_number":2,"item_id":"rs_1","output_index":0,"summary_index":0,"delta":"Plan the call."}`,
		`{"type":"response.output_item.done","sequence_number":3,"output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Plan the call."}]` + enc("enc-done") + `}}`,
		`{"type":"response.output_item.added","sequence_number":4,"output_index":1,"item":{"id":"msg_1","type":"message","status":"in_progress","role":"assistant","phase":"commentary","content":[]}}`,
		`{"type":"response.output_text.delta","sequence_number":5,"item_id":"msg_1","output_index":1,"content_index":0,"delta":"Checking the weather."}`,
		`{"type":"response.output_item.done","sequence_number":6,"output_index":1,"item":{"id":"msg_1","type":"message","status":"completed","role":"assistant","phase":"commentary","content":[{"type":"output_text","annotations":[],"text":"Checking the weather."}]}}`,
		`{"type":"response.output_item.added","sequence_number":7,"output_index":2,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"weather"}}`,
		`{"type":"response.function_call_arguments.delta","sequence_number":8,"item_id":"fc_1","output_index":2,"delta":"{\"location\":\"Florence\"}"}`,
		`{"type":"response.output_item.done","sequence_number":9,"output_index":2,"item":{"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"location\":\"Florence\"}","call_id":"call_1","name":"weather"}}`,
		`{"type":"response.completed","sequence_number":10,"response":{"id":"resp_1","model":"gpt-5.1","status":"completed","usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":0},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":2},"total_tokens":15}}}`,
	}
	var b strings.Builder
	for _, e := range events {
		var head struct{ Type string }
		_ = json.Unmarshal([]byte(e), &head)
		b.WriteString("event: " + head.Type + "\ndata: " + e + "\n\n")
	}
	return []byte(b.String())
}

// TestRealPathResponsesItems checks, through the real path, that a
// Responses turn's items come back in the follow-up request (store:false)
// as the API pairs them: the reasoning item with its id and the
// encrypted_content of output_item.done, and, because it is replayed, the
// message item with its id and phase and the function call with its item
// id besides its call_id. Without a replayable reasoning item (no
// encrypted content, or another model) no item id is sent, since an fc_ or
// msg_ id without its reasoning item is refused.
func TestRealPathResponsesItems(t *testing.T) {
	recorded := mustRead(t, filepath.Join(fixtureRoot, "openai-responses", "reasoning-summary-tool-call.sse"))
	rec := responsesItems(t, recorded)
	var recReasoning, recCall map[string]any
	for _, it := range rec {
		switch it["type"] {
		case "reasoning":
			recReasoning = it
		case "function_call":
			recCall = it
		}
	}
	output := map[string]any{"type": "function_call_output", "call_id": "call_1", "output": "40 C"}
	tests := []struct {
		name    string
		body    []byte
		toModel string // "" is the history's model
		want    []any  // input items after the user message
		absent  []string
	}{
		{name: "recorded reasoning and call", body: recorded, want: []any{
			map[string]any{"type": "reasoning", "id": recReasoning["id"], "encrypted_content": recReasoning["encrypted_content"],
				"summary": "*"},
			map[string]any{"type": "function_call", "id": recCall["id"], "call_id": recCall["call_id"], "name": recCall["name"],
				"arguments": recCall["arguments"]},
			map[string]any{"type": "function_call_output", "call_id": recCall["call_id"], "output": "40 C"},
		}},
		{name: "reasoning, commentary message and call", body: responsesStream(true), want: []any{
			map[string]any{"type": "reasoning", "id": "rs_1", "encrypted_content": "enc-done",
				"summary": []any{map[string]any{"type": "summary_text", "text": "Plan the call."}}},
			map[string]any{"type": "message", "role": "assistant", "id": "msg_1", "status": "completed", "phase": "commentary",
				"content": []any{map[string]any{"type": "output_text", "text": "Checking the weather.", "annotations": []any{}}}},
			map[string]any{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "weather", "arguments": `{"location":"Florence"}`},
			output,
		}},
		{name: "reasoning without encrypted content sends no item ids", body: responsesStream(false), want: []any{
			map[string]any{"role": "assistant", "content": "Checking the weather.", "phase": "commentary"},
			map[string]any{"type": "function_call", "call_id": "call_1", "name": "weather", "arguments": `{"location":"Florence"}`},
			output,
		}},
		{name: "another model gets neither reasoning nor item ids", body: responsesStream(true), toModel: "gpt-5",
			absent: []string{"rs_1", "msg_1", "fc_1", "enc-done"}},
	}
	srv := newLoopback(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			history := historyTurn(t, srv, "openai", tc.body)
			got, raw := sendNext(t, srv, "openai", tc.toModel, history)
			for _, s := range tc.absent {
				if bytes.Contains(raw, []byte(s)) {
					t.Errorf("the request for another model carries %q:\n%s", s, raw)
				}
			}
			if tc.want == nil {
				return
			}
			input, _ := got["input"].([]any)
			if len(input) < 1 {
				t.Fatalf("the request has no input:\n%s", raw)
			}
			items := input[1:] // after the user message
			for i, w := range tc.want {
				if wm := w.(map[string]any); wm["summary"] == "*" && i < len(items) {
					wm["summary"] = items[i].(map[string]any)["summary"] // the summary text is checked elsewhere
				}
			}
			if !reflect.DeepEqual(items, tc.want) {
				gotJSON, _ := json.MarshalIndent(items, "", " ")
				wantJSON, _ := json.MarshalIndent(tc.want, "", " ")
				t.Errorf("items sent back:\n%s\nwant:\n%s", gotJSON, wantJSON)
			}
		})
	}
}
