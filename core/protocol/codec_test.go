package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/streamasm"
	"github.com/smith-agent/smith/core/model"
)

// TestClientsAssembleMessagesFromEvents decodes the golden event stream as
// an RPC client would: every line round-trips, and the assistant messages
// assembled from the message_update deltas have exactly the content of
// their authoritative message_end.
func TestClientsAssembleMessagesFromEvents(t *testing.T) {
	raw, err := os.ReadFile("testdata/stream.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var asm *streamasm.Assembler
	assembled := 0
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		ev, err := UnmarshalEvent(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		again, err := MarshalEvent(ev)
		if err != nil || !bytes.Equal(again, line) {
			t.Fatalf("round trip:\n got %s\nwant %s (%v)", again, line, err)
		}
		switch e := ev.(type) {
		case MessageStart:
			if e.Message.Role() == model.RoleAssistant {
				asm = &streamasm.Assembler{}
			}
		case MessageUpdate:
			if err := asm.Push(e.Delta); err != nil {
				t.Fatal(err)
			}
		case MessageEnd:
			want, ok := e.Message.(model.AssistantMessage)
			if !ok {
				continue
			}
			got := asm.Message()
			for i, c := range got.Content {
				// The JSON wire compacts raw arguments; the session keeps
				// them byte-exact.
				if tc, ok := c.(model.ToolCall); ok {
					var buf bytes.Buffer
					if err := json.Compact(&buf, tc.Arguments); err != nil {
						t.Fatal(err)
					}
					tc.Arguments = buf.Bytes()
					got.Content[i] = tc
				}
			}
			if !reflect.DeepEqual(got.Content, want.Content) {
				t.Fatalf("assembled %#v\nwant %#v", got.Content, want.Content)
			}
			assembled++
		}
	}
	if assembled != 2 {
		t.Fatalf("assembled %d messages", assembled)
	}
}

func TestUnmarshalEventErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not json", `{`, "protocol: an event is not a JSON object"},
		{"unknown type", `{"type":"agent_pause","seq":1}`, `unknown event type "agent_pause"`},
		{"bad message", `{"type":"message_end","seq":1,"message":{"role":"robot"}}`, `protocol: decode message_end event: model: decode message: unknown role "robot"`},
		{"turn end with user message", `{"type":"turn_end","seq":1,"turn":1,"message":{"role":"user","content":[]},"tool_results":[]}`, `decode assistant message: the role is "user"`},
		{"tool end with user result", `{"type":"tool_execution_end","seq":1,"result":{"role":"user","content":[]}}`, `decode tool_result message: the role is "user"`},
		{"queue with assistant", `{"type":"queue_update","seq":1,"steer":[{"role":"assistant","content":[]}],"follow_up":[]}`, `decode user message: the role is "assistant"`},
		{"bad delta", `{"type":"message_update","seq":1,"delta":{"type":"done","reason":"halt"}}`, `unknown stop reason "halt"`},
		{"bad partial", `{"type":"tool_execution_update","seq":1,"partial":[{"type":"video"}]}`, `unknown type "video"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := UnmarshalEvent([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want %q", err, tt.want)
			}
		})
	}
}

// FuzzUnmarshalEvent: decoding never panics, what decodes re-encodes as one
// valid JSON object, and the re-encoding is stable.
func FuzzUnmarshalEvent(f *testing.F) {
	raw, err := os.ReadFile("testdata/stream.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ev, err := UnmarshalEvent(b)
		if err != nil {
			return
		}
		out, err := MarshalEvent(ev)
		if err != nil {
			t.Fatalf("re-encode %#v: %v", ev, err)
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON %s", out)
		}
		// What was read once reads again to the same event.
		back, err := UnmarshalEvent(out)
		if err != nil {
			t.Fatalf("re-decode %s: %v", out, err)
		}
		again, err := MarshalEvent(back)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("unstable encoding:\n%s\n%s (%v)", out, again, err)
		}
	})
}

func TestEventJSONHasTypeFirst(t *testing.T) {
	evs := []Event{AgentStart{Seq: Seq{N: 1}, Run: 1}, CompactionStart{Seq: Seq{N: 2}, Reason: "threshold"}, CompactionEnd{Seq: Seq{N: 3}},
		QueueUpdate{Seq: Seq{N: 4}, Steer: []model.UserMessage{model.UserText("x")}, FollowUp: []model.UserMessage{}},
		AgentEnd{Seq: Seq{N: 5}, Reason: EndAborted, Error: "agent: run aborted"}, Settled{Seq: Seq{N: 6}}}
	want := []string{
		`{"type":"agent_start","seq":1,"run":1}`,
		`{"type":"compaction_start","seq":2,"reason":"threshold"}`,
		`{"type":"compaction_end","seq":3,"reason":"","summarized":0,"kept":0,"tokens_before":0,"tokens_after":0,"summary_bytes":0,"usage":{"input":null,"output":null,"cache_read":null,"cache_write":null,"reasoning":null,"cost_nano_usd":null}}`,
		`{"type":"queue_update","seq":4,"steer":[{"role":"user","content":[{"type":"text","text":"x"}]}],"follow_up":[]}`,
		`{"type":"agent_end","seq":5,"reason":"aborted","error":"agent: run aborted","cost_nano_usd":null}`,
		`{"type":"settled","seq":6}`,
	}
	for i, ev := range evs {
		b, err := MarshalEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want[i] {
			t.Fatalf("got  %s\nwant %s", b, want[i])
		}
		if !json.Valid(b) {
			t.Fatalf("invalid JSON %s", b)
		}
	}
}

// TestInterruptedCallsArePairedOnResume: a history that ends with tool
// calls lacking results (a crash mid-batch) gets results marked unknown
// before any new input.
