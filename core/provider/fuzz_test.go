package provider

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
)

// FuzzConverter drives the event converter with arbitrary event sequences
// and extension payloads: it never panics and emits at most one terminal
// event, last.
func FuzzConverter(f *testing.F) {
	f.Add([]byte{0, 1, 2, 6, 8}, `smith.providers/v1 {"kind":"thinking","index":0,"encrypted":"RU5D","redacted":true}`)
	f.Add([]byte{9, 5, 6}, `smith.providers/v1 {"kind":"error","error_kind":"rate_limit","retryable":true}`)
	f.Add([]byte{3, 4, 5, 5, 8}, `smith.providers/v1 {`)
	f.Fuzz(func(t *testing.T, ops []byte, payload string) {
		c := &converter{provider: "p", model: "m", requested: "m", secrets: []string{"sekrit"}}
		var out []model.StreamEvent
		for i, op := range ops {
			idx := uint32(op>>4) % 4
			sig := "sig"
			var e pluginabi.StreamEvent
			switch op % 10 {
			case 0:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventStart, Start: "r"}
			case 1:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventTextDelta, TextDelta: pluginabi.ContentDelta{Index: idx, Text: "t"}}
			case 2:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventThinkingDelta, ThinkingDelta: pluginabi.ContentDelta{Index: idx, Text: "h"}}
			case 3:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventToolCallStart, ToolCallStart: pluginabi.ToolCallStart{Index: idx, ID: "c", Name: "f"}}
			case 4:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventToolCallDelta, ToolCallDelta: pluginabi.ContentDelta{Index: idx, Text: "{}"}}
			case 5:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventBlockEnd, BlockEnd: pluginabi.BlockEnd{Index: idx, Signature: &sig}}
			case 6:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventUnknown, Unknown: payload}
			case 7:
				n := uint64(i)
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventUsage, Usage: pluginabi.Usage{Input: &n}}
			case 8:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventDone, Done: pluginabi.StopReason(op % 6)}
			case 9:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventFailure, Failure: pluginabi.Failure{Kind: pluginabi.FailureKind(op % 13), Message: payload}}
			}
			out = c.add(out, []pluginabi.StreamEvent{e})
		}
		for i, e := range out {
			switch e := e.(type) {
			case model.Done, model.StreamError:
				if i != len(out)-1 {
					t.Fatalf("terminal event %d of %d", i, len(out))
				}
				if se, ok := e.(model.StreamError); ok && (!se.Err.Kind.Valid() || se.Err.Message == "" || strings.Contains(se.Err.Message, "sekrit")) {
					t.Errorf("error %+v: kind must be valid, the message set and free of the secret", se.Err)
				}
			}
		}
	})
}
