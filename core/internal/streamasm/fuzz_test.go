package streamasm

import (
	"encoding/json"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// decodeOps turns fuzz bytes into stream events, three bytes per event.
func decodeOps(b []byte) []model.StreamEvent {
	payloads := []string{"", "{", `{"a":1}`, "}", "x", `"s"`}
	ids := []string{"a", "b", "", "a"}
	var evs []model.StreamEvent
	for len(b) >= 3 {
		op, idx, p := b[0]%9, int(b[1]%5)-1, int(b[2])
		b = b[3:]
		text := payloads[p%len(payloads)]
		switch op {
		case 0:
			evs = append(evs, model.Start{Provider: "f"})
		case 1:
			evs = append(evs, model.TextDelta{Index: idx, Text: text, Signature: []byte(text)})
		case 2:
			evs = append(evs, model.ThinkingDelta{Index: idx, Text: text, Redacted: p%2 == 0})
		case 3:
			evs = append(evs, model.ToolCallStart{Index: idx, ID: ids[p%len(ids)], Name: "t"})
		case 4:
			evs = append(evs, model.ToolCallDelta{Index: idx, Arguments: text})
		case 5:
			evs = append(evs, model.ToolCallEnd{Index: idx})
		case 6:
			reasons := []model.StopReason{model.StopEnd, model.StopToolUse, model.StopLength, model.StopRefusal, "bogus"}
			evs = append(evs, model.Done{Reason: reasons[p%len(reasons)]})
		case 7:
			evs = append(evs, model.StreamError{Err: model.NewError(model.ErrServer, "x")})
		default:
			evs = append(evs, model.StreamError{})
		}
	}
	return evs
}

// FuzzAssembler checks the assembler's invariants on arbitrary sequences:
// no panic; a failure is sticky; a message is either a success (stop set,
// no error, every call ended with valid JSON when the stop is tool_use) or
// a failure (error set, no stop); the message always encodes to JSON.
func FuzzAssembler(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 1, 4, 6, 0, 0})
	f.Add([]byte{0, 0, 0, 3, 1, 0, 4, 1, 2, 5, 1, 0, 6, 0, 1})
	f.Add([]byte{0, 0, 0, 4, 1, 1})
	f.Add([]byte{0, 0, 0, 6, 0, 0, 7, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var a Assembler
		failed := false
		for _, ev := range decodeOps(b) {
			err := a.Push(ev)
			if failed && err == nil {
				t.Fatal("push accepted after a failure")
			}
			failed = failed || err != nil
		}
		m := a.Message()
		if (m.Error == nil) == (m.Stop == "") {
			t.Fatalf("exactly one of stop (%q) and error (%v) must be set", m.Stop, m.Error)
		}
		if failed && (m.Error == nil || m.Error.Kind != model.ErrMalformed) {
			t.Fatalf("failure not reported: %v", m.Error)
		}
		if m.Stop == model.StopToolUse {
			for _, c := range m.ToolCalls() {
				if c.ArgumentsError == "" && !json.Valid(c.Arguments) {
					t.Fatalf("call %q has invalid arguments %q", c.ID, c.Arguments)
				}
			}
		}
		for _, c := range m.ToolCalls() {
			if !json.Valid(c.Arguments) {
				t.Fatalf("call %q arguments not JSON: %q", c.ID, c.Arguments)
			}
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("encode: %v", err)
		}
	})
}
