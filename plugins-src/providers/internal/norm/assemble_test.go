package norm

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAssembler(t *testing.T) {
	tests := []struct {
		name    string
		events  []Event
		errWant string
		check   func(t *testing.T, m AssistantMessage)
	}{
		{
			name: "blocks, signatures and arguments assemble",
			events: []Event{Start{Provider: "p", Model: "m", ResponseID: "r"},
				ThinkingDelta{Index: 0, Text: "a"}, ThinkingDelta{Index: 0, Text: "b", Signature: []byte("s1")},
				ThinkingDelta{Index: 0, Signature: []byte("s2")},
				TextDelta{Index: 1, Text: "hi", ItemID: "msg_1"},
				ToolCallStart{Index: 2, ID: "c", Name: "f"}, ToolCallDelta{Index: 2, Arguments: `{"a":`},
				ToolCallDelta{Index: 2, Arguments: `1}`}, ToolCallEnd{Index: 2, Signature: []byte("ts")},
				Done{Reason: StopToolUse, Raw: "tool_use", Usage: Usage{Input: Known(1)}}},
			check: func(t *testing.T, m AssistantMessage) {
				th := m.Content[0].(Thinking)
				if th.Text != "ab" || string(th.Signature) != "s1s2" || th.Producer != "p" {
					t.Errorf("thinking %+v", th)
				}
				if tx := m.Content[1].(Text); tx.Text != "hi" || tx.ItemID != "msg_1" {
					t.Errorf("text %+v", tx)
				}
				tc := m.Content[2].(ToolCall)
				if string(tc.Arguments) != `{"a":1}` || tc.ArgumentsError != "" || string(tc.Signature) != "ts" {
					t.Errorf("call %+v", tc)
				}
				if m.Stop != StopToolUse || m.StopRaw != "tool_use" || m.Error != nil {
					t.Errorf("stop %q %q %v", m.Stop, m.StopRaw, m.Error)
				}
			},
		},
		{
			name: "unterminated call is finalized as invalid at an error",
			events: []Event{ToolCallStart{Index: 0, ID: "c", Name: "f"}, ToolCallDelta{Index: 0, Arguments: `{"a":"b`},
				StreamError{Err: &Error{Kind: ErrTruncated}}},
			check: func(t *testing.T, m AssistantMessage) {
				tc := m.Content[0].(ToolCall)
				var s string
				if tc.ArgumentsError == "" || json.Unmarshal(tc.Arguments, &s) != nil || s != `{"a":"b` {
					t.Errorf("call %+v, want invalid arguments kept as a JSON string", tc)
				}
				if m.Error == nil || m.Error.Kind != ErrTruncated {
					t.Errorf("error %v", m.Error)
				}
			},
		},
		{name: "index gap", events: []Event{TextDelta{Index: 1, Text: "x"}}, errWant: "only 0 blocks exist"},
		{name: "kind mismatch", events: []Event{TextDelta{Index: 0, Text: "x"}, ThinkingDelta{Index: 0, Text: "y"}}, errWant: "that block is a norm.Text"},
		{name: "delta for no call", events: []Event{ToolCallDelta{Index: 0, Arguments: "{}"}}, errWant: "not an open tool call"},
		{name: "event after terminal", events: []Event{Done{Reason: StopEnd}, TextDelta{Index: 0, Text: "x"}}, errWant: "after the terminal event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a Assembler
			var err error
			for _, e := range tt.events {
				if err = a.Add(e); err != nil {
					break
				}
			}
			if tt.errWant != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errWant) {
					t.Fatalf("got %v, want an error containing %q", err, tt.errWant)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, a.Message())
		})
	}
}

func TestFinishArguments(t *testing.T) {
	tests := []struct {
		name, raw, want string
		valid           bool
	}{
		{"empty is the empty object", "", "{}", true},
		{"spaces are the empty object", "  ", "{}", true},
		{"object kept byte for byte", `{"b": 3,"a": 2}`, `{"b": 3,"a": 2}`, true},
		{"cut off", `{"a": "b`, `"{\"a\": \"b"`, false},
		{"not an object", `[1]`, `"[1]"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := FinishArguments(tt.raw)
			if string(got) != tt.want || (why == "") != tt.valid {
				t.Errorf("got %s (%q), want %s valid=%v", got, why, tt.want, tt.valid)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	var u Usage
	if u.IsKnown() || u.Total().IsKnown() {
		t.Errorf("zero usage must be unknown, not zero")
	}
	u = Usage{Input: Known(10), Output: Known(5), CacheRead: Known(0), CacheWrite: Known(2)}
	if v, ok := u.Total().Value(); !ok || v != 17 {
		t.Errorf("total %v", u.Total())
	}
	u.CacheWrite = Amount{}
	if u.Total().IsKnown() || u.Total().String() != "unknown" {
		t.Errorf("a total with an unknown part must be unknown, got %v", u.Total())
	}
}
