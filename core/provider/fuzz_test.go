package provider

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
)

// FuzzConverter drives the event converter with arbitrary event sequences
// and codec texts (response model, encrypted reasoning, raw stop and usage,
// vendor error details, unknown events): it never panics, emits at most one
// terminal event, last, and no text it emits holds the request's secret.
func FuzzConverter(f *testing.F) {
	f.Add([]byte{0, 1, 2, 6, 8}, `claude-x`)
	f.Add([]byte{2, 5, 9, 6}, `{"input_tokens":3,"note":"sekrit"}`)
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
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventStart, Start: pluginabi.ResponseStart{ID: "r", Model: payload}}
			case 1:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventTextDelta, TextDelta: pluginabi.ContentDelta{Index: idx, Text: "t"}}
			case 2:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventThinkingDelta, ThinkingDelta: pluginabi.ContentDelta{Index: idx, Text: "h"}}
			case 3:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventToolCallStart, ToolCallStart: pluginabi.ToolCallStart{Index: idx, ID: "c", Name: "f"}}
			case 4:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventToolCallDelta, ToolCallDelta: pluginabi.ContentDelta{Index: idx, Text: "{}"}}
			case 5:
				enc := []byte(payload)
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventBlockEnd, BlockEnd: pluginabi.BlockEnd{Index: idx, Signature: &sig,
					Encrypted: &enc, Redacted: op&16 != 0}}
			case 6:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventUnknown, Unknown: payload}
			case 7:
				n := uint64(i)
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventUsage, Usage: pluginabi.Usage{Input: &n}}
			case 8:
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventDone, Done: pluginabi.ResponseEnd{Reason: pluginabi.StopReason(op % 6),
					RawStop: &payload, RawUsage: &payload}}
			case 9:
				st := uint16(op)
				e = pluginabi.StreamEvent{Case: pluginabi.StreamEventFailure, Failure: pluginabi.ResponseFailure{
					Failure: pluginabi.Failure{Kind: pluginabi.FailureKind(op % 14), Message: payload, Retryable: op&16 != 0,
						HTTPStatus: &st, ProviderType: &payload, VendorCode: &payload, RequestID: &payload},
					RawStop: &payload, RawUsage: &payload}}
			}
			out = c.add(out, []pluginabi.StreamEvent{e})
		}
		for i, e := range out {
			switch e := e.(type) {
			case model.Done:
				if i != len(out)-1 {
					t.Fatalf("terminal event %d of %d", i, len(out))
				}
				if strings.Contains(e.RawStop+e.RawUsage, "sekrit") {
					t.Errorf("done %+v: raw values must be free of the secret", e)
				}
			case model.StreamError:
				if i != len(out)-1 {
					t.Fatalf("terminal event %d of %d", i, len(out))
				}
				x := e.Err
				if !x.Kind.Valid() || x.Message == "" || strings.Contains(x.Message+x.ProviderType+x.Code+x.RequestID+e.RawStop+e.RawUsage, "sekrit") {
					t.Errorf("error %+v: kind must be valid, the message set and every text free of the secret", e)
				}
			}
		}
	})
}
