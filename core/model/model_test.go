package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestAmountUnknownIsNotZero(t *testing.T) {
	var zero Amount
	if zero.IsKnown() {
		t.Fatal("zero Amount is known; want unknown")
	}
	if got := Known(0).Add(Known(3)); got != Known(3) {
		t.Fatalf("0+3 = %v", got)
	}
	if got := Known(5).Add(Unknown()); got.IsKnown() {
		t.Fatalf("5+unknown = %v; want unknown", got)
	}
	b, _ := json.Marshal(struct{ A, B Amount }{Known(0), Unknown()})
	if string(b) != `{"A":0,"B":null}` {
		t.Fatalf("json = %s", b)
	}
	var back struct{ A, B Amount }
	if err := json.Unmarshal(b, &back); err != nil || back.A != Known(0) || back.B.IsKnown() {
		t.Fatalf("round trip = %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"A":"x"}`), &back); err == nil || !strings.Contains(err.Error(), "neither an integer nor null") {
		t.Fatalf("bad amount err = %v", err)
	}
}

func TestUsageAddKeepsUnknown(t *testing.T) {
	a := Usage{Input: Known(10), Output: Known(5), CacheRead: Known(0), CacheWrite: Known(0)}
	b := Usage{Input: Known(1), Output: Known(2), CacheRead: Known(3), CacheWrite: Known(4), CostNanoUSD: Known(7)}
	sum := a.Add(b)
	if sum.Input != Known(11) || sum.CacheWrite != Known(4) {
		t.Fatalf("sum = %+v", sum)
	}
	if sum.CostNanoUSD.IsKnown() || sum.Reasoning.IsKnown() {
		t.Fatalf("unknown fields became known: %+v", sum)
	}
	if a.Total() != Known(15) {
		t.Fatalf("total = %v", a.Total())
	}
	if (Usage{Input: Known(1)}).Total().IsKnown() {
		t.Fatal("total with unknown parts is known")
	}
}

func TestErrorKinds(t *testing.T) {
	tests := []struct {
		name      string
		kind      ErrorKind
		retryable bool
	}{
		{"auth", ErrAuth, false},
		{"invalid request", ErrInvalidRequest, false},
		{"context overflow", ErrContextOverflow, false},
		{"rate limit", ErrRateLimit, true},
		{"quota", ErrQuota, false},
		{"overloaded", ErrOverloaded, true},
		{"server", ErrServer, true},
		{"not found", ErrNotFound, false},
		{"transport", ErrTransport, true},
		{"truncated", ErrTruncated, true},
		{"aborted", ErrAborted, false},
		{"malformed", ErrMalformed, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.kind.Valid() {
				t.Fatalf("%q not valid", tt.kind)
			}
			e := NewError(tt.kind, "boom %d", 1)
			if e.Retryable != tt.retryable {
				t.Fatalf("retryable = %v; want %v", e.Retryable, tt.retryable)
			}
			if want := "model: " + string(tt.kind) + ": boom 1"; e.Error() != want {
				t.Fatalf("Error() = %q; want %q", e.Error(), want)
			}
		})
	}
	if ErrorKind("teapot").Valid() {
		t.Fatal("unknown kind is valid")
	}
	e := &Error{Kind: ErrRateLimit, Message: "slow down", HTTPStatus: 429, RequestID: "req_1"}
	if e.Error() != "model: rate_limit: slow down (http 429) (request id req_1)" {
		t.Fatalf("Error() = %q", e.Error())
	}
}

func TestMessageJSONRoundTrip(t *testing.T) {
	sig := []byte{0, 1, 2, 0xff, 'x'}
	tests := []struct {
		name string
		msg  Message
		want string // substring of the encoding
	}{
		{"user", UserText("hi"), `{"role":"user","content":[{"type":"text","text":"hi"}]}`},
		{"assistant with thinking and call", AssistantMessage{
			Content: []Content{
				Thinking{Text: "hmm", Signature: sig, Encrypted: []byte("enc"), Redacted: true, Producer: "anthropic-messages"},
				Text{Text: "ok", Signature: []byte("s"), Producer: "gemini"},
				ToolCall{ID: "c1", Name: "read", Arguments: json.RawMessage(`{"path":"a"}`)},
				Image{MediaType: "image/png", Data: []byte{1, 2}},
			},
			Provider: "p", Model: "m", ResponseID: "r", Stop: StopToolUse,
			Usage: Usage{Input: Known(3), Output: Unknown()},
		}, `"usage":{"input":3,"output":null`},
		{"assistant error", AssistantMessage{Error: &Error{Kind: ErrAborted, Message: "stop"}, Content: []Content{}},
			`"error":{"kind":"aborted","message":"stop","retryable":false}`},
		{"tool result", ToolResultMessage{CallID: "c1", Name: "read", Content: []Content{Text{Text: "x"}}, IsError: true, Mutation: MutationUnknown},
			`{"role":"tool_result","call_id":"c1","name":"read","content":[{"type":"text","text":"x"}],"is_error":true,"mutation":"unknown"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tt.want) {
				t.Fatalf("encoding %s\nlacks %s", b, tt.want)
			}
			back, err := UnmarshalMessage(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tt.msg) {
				t.Fatalf("round trip:\n got %#v\nwant %#v", back, tt.msg)
			}
		})
	}
}

func TestUnmarshalErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		dec  func([]byte) error
		want string
	}{
		{"message unknown role", `{"role":"system"}`, decMsg, `unknown role "system"`},
		{"message missing role", `{"content":[]}`, decMsg, `missing "role" field`},
		{"message not object", `[1]`, decMsg, "not a JSON object"},
		{"content unknown type", `{"role":"user","content":[{"type":"video"}]}`, decMsg, `content[0]: model: decode content block: unknown type "video"`},
		{"done bad reason", `{"type":"done","reason":"stop"}`, decEv, `unknown stop reason "stop"`},
		{"error missing kind", `{"type":"error"}`, decEv, "missing or unknown error kind"},
		{"error bad kind", `{"type":"error","error":{"kind":"oops"}}`, decEv, "missing or unknown error kind"},
		{"event unknown", `{"type":"text_start"}`, decEv, `unknown type "text_start"`},
		{"event bad field", `{"type":"text_delta","index":"x"}`, decEv, "decode text_delta"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.dec([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want it to contain %q", err, tt.want)
			}
		})
	}
}

func decMsg(b []byte) error { _, err := UnmarshalMessage(b); return err }
func decEv(b []byte) error  { _, err := UnmarshalStreamEvent(b); return err }

func TestStreamEventJSONRoundTrip(t *testing.T) {
	events := []StreamEvent{
		Start{Provider: "mock", Model: "m", ResponseID: "r1"},
		TextDelta{Index: 0, Text: "a", Signature: []byte("s")},
		ThinkingDelta{Index: 1, Text: "t", Signature: []byte{9}, Encrypted: []byte{8}, Redacted: true},
		ToolCallStart{Index: 2, ID: "c", Name: "read"},
		ToolCallDelta{Index: 2, Arguments: `{"a`},
		ToolCallEnd{Index: 2, Signature: []byte("x")},
		Done{Reason: StopToolUse, Usage: Usage{Input: Known(1)}},
		StreamError{Err: &Error{Kind: ErrTruncated, Message: "cut", Retryable: true}},
		Done{Reason: StopEnd, RawStop: "end_turn", RawUsage: `{"output_tokens":9}`},
		StreamError{Err: &Error{Kind: ErrOverloaded, Message: "busy", ProviderType: "overloaded_error", Code: "E529", RequestID: "req_1"},
			RawStop: "error", RawUsage: `{"input_tokens":3}`},
	}
	wantTypes := []string{"start", "text_delta", "thinking_delta", "toolcall_start", "toolcall_delta", "toolcall_end", "done", "error", "done", "error"}
	for i, ev := range events {
		t.Run(wantTypes[i], func(t *testing.T) {
			if got := StreamEventType(ev); got != wantTypes[i] {
				t.Fatalf("type = %q", got)
			}
			b, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(b), `{"type":"`+wantTypes[i]+`"`) {
				t.Fatalf("encoding %s lacks discriminator", b)
			}
			back, err := UnmarshalStreamEvent(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, ev) {
				t.Fatalf("round trip:\n got %#v\nwant %#v", back, ev)
			}
		})
	}
}

func TestToolCallsInOrder(t *testing.T) {
	m := AssistantMessage{Content: []Content{
		ToolCall{ID: "a"}, Text{Text: "x"}, ToolCall{ID: "b"},
	}}
	calls := m.ToolCalls()
	if len(calls) != 2 || calls[0].ID != "a" || calls[1].ID != "b" {
		t.Fatalf("calls = %+v", calls)
	}
}
