package streamasm

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

func assemble(events ...model.StreamEvent) (model.AssistantMessage, error) {
	var a Assembler
	var first error
	for _, ev := range events {
		if err := a.Push(ev); err != nil && first == nil {
			first = err
		}
	}
	return a.Message(), first
}

var start = model.Start{Provider: "mock", Model: "m1", ResponseID: "r1"}

func TestAssembleWellFormed(t *testing.T) {
	tests := []struct {
		name   string
		events []model.StreamEvent
		want   model.AssistantMessage
	}{
		{
			name: "text in deltas",
			events: []model.StreamEvent{start,
				model.TextDelta{Index: 0, Text: "Hel"}, model.TextDelta{Index: 0, Text: "lo"},
				model.Done{Reason: model.StopEnd, Usage: model.Usage{Input: model.Known(5)}}},
			want: model.AssistantMessage{Provider: "mock", Model: "m1", ResponseID: "r1", Stop: model.StopEnd,
				Usage:   model.Usage{Input: model.Known(5)},
				Content: []model.Content{model.Text{Text: "Hello"}}},
		},
		{
			name: "thinking with signature then tool call",
			events: []model.StreamEvent{start,
				model.ThinkingDelta{Index: 0, Text: "let me "}, model.ThinkingDelta{Index: 0, Text: "look"},
				model.ThinkingDelta{Index: 0, Signature: []byte{0, 0xff}}, model.ThinkingDelta{Index: 0, Signature: []byte{1}},
				model.ToolCallStart{Index: 1, ID: "c1", Name: "read"},
				model.ToolCallDelta{Index: 1, Arguments: `{"path":`}, model.ToolCallDelta{Index: 1, Arguments: ` "a.txt"}`},
				model.ToolCallEnd{Index: 1},
				model.Done{Reason: model.StopToolUse}},
			want: model.AssistantMessage{Provider: "mock", Model: "m1", ResponseID: "r1", Stop: model.StopToolUse,
				Content: []model.Content{
					model.Thinking{Text: "let me look", Signature: []byte{0, 0xff, 1}, Producer: "mock"},
					model.ToolCall{ID: "c1", Name: "read", Arguments: json.RawMessage(`{"path": "a.txt"}`)},
				}},
		},
		{
			name: "redacted thinking keeps encrypted payload",
			events: []model.StreamEvent{start,
				model.ThinkingDelta{Index: 0, Encrypted: []byte("opaque"), Redacted: true},
				model.TextDelta{Index: 1, Text: "hi", Signature: []byte("ts")},
				model.Done{Reason: model.StopEnd}},
			want: model.AssistantMessage{Provider: "mock", Model: "m1", ResponseID: "r1", Stop: model.StopEnd,
				Content: []model.Content{
					model.Thinking{Encrypted: []byte("opaque"), Redacted: true, Producer: "mock"},
					model.Text{Text: "hi", Signature: []byte("ts"), Producer: "mock"},
				}},
		},
		{
			name: "parallel calls with interleaved deltas and empty arguments",
			events: []model.StreamEvent{start,
				model.ToolCallStart{Index: 0, ID: "a", Name: "ls"},
				model.ToolCallStart{Index: 1, ID: "b", Name: "read"},
				model.ToolCallDelta{Index: 1, Arguments: `{"path"`},
				model.ToolCallEnd{Index: 0},
				model.ToolCallDelta{Index: 1, Arguments: `:"x"}`},
				model.ToolCallEnd{Index: 1, Signature: []byte("sig")},
				model.Done{Reason: model.StopToolUse}},
			want: model.AssistantMessage{Provider: "mock", Model: "m1", ResponseID: "r1", Stop: model.StopToolUse,
				Content: []model.Content{
					model.ToolCall{ID: "a", Name: "ls", Arguments: json.RawMessage(`{}`)},
					model.ToolCall{ID: "b", Name: "read", Arguments: json.RawMessage(`{"path":"x"}`), Signature: []byte("sig"), Producer: "mock"},
				}},
		},
		{
			name: "length stop cuts a tool call off",
			events: []model.StreamEvent{start,
				model.ToolCallStart{Index: 0, ID: "a", Name: "write"},
				model.ToolCallDelta{Index: 0, Arguments: `{"content":"abc`},
				model.Done{Reason: model.StopLength}},
			want: model.AssistantMessage{Provider: "mock", Model: "m1", ResponseID: "r1", Stop: model.StopLength,
				Content: []model.Content{
					model.ToolCall{ID: "a", Name: "write", Arguments: json.RawMessage(`"{\"content\":\"abc"`),
						ArgumentsError: "the arguments were cut off before the tool call ended"},
				}},
		},
		{
			name: "invalid JSON arguments are kept but flagged",
			events: []model.StreamEvent{start,
				model.ToolCallStart{Index: 0, ID: "a", Name: "write"},
				model.ToolCallDelta{Index: 0, Arguments: `{nope}`},
				model.ToolCallEnd{Index: 0},
				model.Done{Reason: model.StopToolUse}},
			want: model.AssistantMessage{Provider: "mock", Model: "m1", ResponseID: "r1", Stop: model.StopToolUse,
				Content: []model.Content{
					model.ToolCall{ID: "a", Name: "write", Arguments: json.RawMessage(`"{nope}"`),
						ArgumentsError: "the arguments are not valid JSON"},
				}},
		},
		{
			name: "provider error keeps partial content and usage",
			events: []model.StreamEvent{start,
				model.TextDelta{Index: 0, Text: "par"},
				model.StreamError{Err: &model.Error{Kind: model.ErrOverloaded, Message: "busy", Retryable: true}, Usage: model.Usage{Input: model.Known(9)}}},
			want: model.AssistantMessage{Provider: "mock", Model: "m1", ResponseID: "r1",
				Usage:   model.Usage{Input: model.Known(9)},
				Error:   &model.Error{Kind: model.ErrOverloaded, Message: "busy", Retryable: true},
				Content: []model.Content{model.Text{Text: "par"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := assemble(tt.events...)
			if err != nil {
				t.Fatalf("Push: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("message:\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestAssembleMalformed(t *testing.T) {
	call := model.ToolCallStart{Index: 0, ID: "c1", Name: "read"}
	tests := []struct {
		name   string
		events []model.StreamEvent
		want   string
	}{
		{"delta before start", []model.StreamEvent{model.TextDelta{Text: "x"}}, "event 1 (text_delta): arrived before start"},
		{"second start", []model.StreamEvent{start, start}, "event 2 (start): second start event"},
		{"delta for unknown tool call", []model.StreamEvent{start, model.ToolCallDelta{Index: 0, Arguments: "{}"}}, "no tool call was started at index 0"},
		{"end for unknown tool call", []model.StreamEvent{start, model.ToolCallEnd{Index: 3}}, "index 3 is out of range: 0 blocks so far"},
		{"negative index", []model.StreamEvent{start, model.TextDelta{Index: -1}}, "index -1 is out of range"},
		{"skipped index", []model.StreamEvent{start, model.TextDelta{Index: 1}}, "index 1 is out of range: 0 blocks so far"},
		{"kind mismatch", []model.StreamEvent{start, model.TextDelta{Index: 0}, model.ThinkingDelta{Index: 0}}, "index 0 is a text block, not a thinking block"},
		{"tool start on used index", []model.StreamEvent{start, model.TextDelta{Index: 0}, model.ToolCallStart{Index: 0, ID: "a", Name: "b"}}, "index 0 must open a new block at index 1"},
		{"duplicate call id", []model.StreamEvent{start, call, model.ToolCallEnd{Index: 0}, model.ToolCallStart{Index: 1, ID: "c1", Name: "ls"}}, `tool call id "c1" at index 1 repeats the call at index 0`},
		{"empty call name", []model.StreamEvent{start, model.ToolCallStart{Index: 0, ID: "c"}}, `empty id ("c") or name ("")`},
		{"delta after call end", []model.StreamEvent{start, call, model.ToolCallEnd{Index: 0}, model.ToolCallDelta{Index: 0}}, `tool call "c1" at index 0 already ended`},
		{"two terminals", []model.StreamEvent{start, model.Done{Reason: model.StopEnd}, model.Done{Reason: model.StopEnd}}, "event 3 (done): arrived after the terminal done event"},
		{"error after done", []model.StreamEvent{start, model.Done{Reason: model.StopEnd}, model.StreamError{Err: model.NewError(model.ErrServer, "x")}}, "after the terminal done event"},
		{"unended call at tool_use", []model.StreamEvent{start, call, model.Done{Reason: model.StopToolUse}}, `tool call "c1" at index 0 never ended before done(tool_use)`},
		{"tool_use without calls", []model.StreamEvent{start, model.Done{Reason: model.StopToolUse}}, "stop reason tool_use without any tool call"},
		{"end with calls", []model.StreamEvent{start, call, model.ToolCallEnd{Index: 0}, model.Done{Reason: model.StopEnd}}, "stop reason end with 1 tool calls"},
		{"bad stop reason", []model.StreamEvent{start, model.Done{Reason: "stop"}}, `unknown stop reason "stop"`},
		{"error without kind", []model.StreamEvent{start, model.StreamError{}}, "error event without a valid error kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := assemble(tt.events...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want it to contain %q", err, tt.want)
			}
			if msg.Error == nil || msg.Error.Kind != model.ErrMalformed || msg.Stop != "" {
				t.Fatalf("message error = %v, stop %q; want malformed and no stop", msg.Error, msg.Stop)
			}
		})
	}
}

func TestMissingTerminalIsTruncated(t *testing.T) {
	msg, err := assemble(start, model.TextDelta{Index: 0, Text: "half"})
	if err != nil {
		t.Fatal(err)
	}
	if msg.Error == nil || msg.Error.Kind != model.ErrTruncated || msg.Stop != "" {
		t.Fatalf("error = %v stop %q; want truncated", msg.Error, msg.Stop)
	}
	if !strings.Contains(msg.Error.Message, "ended after 2 events without a done or error event") {
		t.Fatalf("message = %q", msg.Error.Message)
	}
	if len(msg.Content) != 1 {
		t.Fatalf("partial content lost: %v", msg.Content)
	}
	var empty Assembler
	if m := empty.Message(); m.Error == nil || m.Error.Kind != model.ErrTruncated {
		t.Fatalf("empty stream: %v", m.Error)
	}
}

func TestAbortKeepsPartialAndFlagsCalls(t *testing.T) {
	var a Assembler
	for _, ev := range []model.StreamEvent{start, model.ToolCallStart{Index: 0, ID: "c", Name: "bash"}, model.ToolCallDelta{Index: 0, Arguments: `{"cmd":`}} {
		if err := a.Push(ev); err != nil {
			t.Fatal(err)
		}
	}
	a.Abort(model.NewError(model.ErrAborted, "user abort"))
	m := a.Message()
	if m.Error == nil || m.Error.Kind != model.ErrAborted {
		t.Fatalf("error = %v", m.Error)
	}
	tc := m.Content[0].(model.ToolCall)
	if tc.ArgumentsError == "" {
		t.Fatal("cut-off call is not flagged")
	}
	if err := a.Push(model.Done{Reason: model.StopEnd}); err == nil {
		t.Fatal("push after abort accepted")
	}
	// Abort after a terminal event changes nothing.
	var b Assembler
	_ = b.Push(start)
	_ = b.Push(model.Done{Reason: model.StopEnd})
	b.Abort(model.NewError(model.ErrAborted, "late"))
	if m := b.Message(); m.Error != nil || m.Stop != model.StopEnd {
		t.Fatalf("late abort changed the message: %v %q", m.Error, m.Stop)
	}
}

// A request refused before any output (an HTTP status, a transport failure,
// a missing credential) ends the stream with its classified error, not as a
// malformed stream.
func TestErrorBeforeStart(t *testing.T) {
	refused := model.NewError(model.ErrRateLimit, "429 from the server")
	msg, err := assemble(model.StreamError{Err: refused})
	if err != nil {
		t.Fatalf("push: %v", err)
	}
	if msg.Error == nil || msg.Error.Kind != model.ErrRateLimit {
		t.Fatalf("message error = %v, want the rate_limit error the stream carried", msg.Error)
	}
	if _, err := assemble(model.StreamError{Err: refused}, start); err == nil ||
		!strings.Contains(err.Error(), "after the terminal error event") {
		t.Fatalf("start after an error: got %v, want a terminal-order error", err)
	}
}
