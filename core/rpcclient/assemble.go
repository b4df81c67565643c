package rpcclient

import (
	"bytes"
	"encoding/json"

	"github.com/smith-agent/smith/core/internal/streamasm"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// Assembler rebuilds the assistant message being streamed from its
// message_update deltas, the way the agent assembles the provider's
// stream. Its zero value is ready. It is not safe for concurrent use.
type Assembler struct {
	asm    *streamasm.Assembler
	active bool
}

// Observe takes the next event. At an assistant message_end it returns the
// message assembled from the deltas, completed with the end's stop reason,
// usage or error (the parts no delta carries), and true: for a well-behaved
// server it equals the message_end's message as decoded from the wire
// (tool-call arguments compacted, as JSON encoding writes them).
func (a *Assembler) Observe(ev protocol.Event) (model.AssistantMessage, bool) {
	switch e := ev.(type) {
	case protocol.MessageStart:
		if _, ok := e.Message.(model.AssistantMessage); ok {
			a.asm, a.active = &streamasm.Assembler{}, true
		}
	case protocol.MessageUpdate:
		if a.active {
			_ = a.asm.Push(e.Delta) // a malformed stream shows in Message
		}
	case protocol.MessageEnd:
		end, ok := e.Message.(model.AssistantMessage)
		if !ok || !a.active {
			return model.AssistantMessage{}, false
		}
		a.active = false
		if end.Error != nil {
			_ = a.asm.Push(model.StreamError{Err: end.Error, Usage: end.Usage})
		} else {
			_ = a.asm.Push(model.Done{Reason: end.Stop, Usage: end.Usage})
		}
		return compact(a.asm.Message()), true
	}
	return model.AssistantMessage{}, false
}

// compact compacts the tool-call arguments of m, as the wire carries them.
func compact(m model.AssistantMessage) model.AssistantMessage {
	for i, c := range m.Content {
		tc, ok := c.(model.ToolCall)
		if !ok || len(tc.Arguments) == 0 {
			continue
		}
		var buf bytes.Buffer
		if json.Compact(&buf, tc.Arguments) == nil {
			tc.Arguments = buf.Bytes()
			m.Content[i] = tc
		}
	}
	return m
}
