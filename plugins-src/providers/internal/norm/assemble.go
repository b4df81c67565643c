package norm

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Assembler folds a stream of events into an [AssistantMessage]. The zero
// Assembler is ready to use; it is not safe for concurrent use.
type Assembler struct {
	msg      AssistantMessage
	args     map[int]*strings.Builder
	terminal bool
}

// Add applies e. It fails, naming the event and the index, when the stream
// breaks the event protocol: content after the terminal event, a gap in the
// block indexes, or an event of another kind than the block at its index.
func (a *Assembler) Add(e Event) error {
	if a.terminal {
		return fmt.Errorf("norm: %T after the terminal event; a stream has exactly one done or error", e)
	}
	switch e := e.(type) {
	case Start:
		a.msg.Provider, a.msg.Model, a.msg.ResponseID = e.Provider, e.Model, e.ResponseID
	case TextDelta:
		b, err := block(a, e.Index, Text{Producer: a.msg.Provider, ItemID: e.ItemID, Phase: e.Phase})
		if err != nil {
			return err
		}
		t, ok := b.(Text)
		if !ok {
			return mismatch(e, e.Index, b)
		}
		t.Text += e.Text
		t.Signature = append(t.Signature, e.Signature...)
		a.msg.Content[e.Index] = t
	case ThinkingDelta:
		b, err := block(a, e.Index, Thinking{Producer: a.msg.Provider})
		if err != nil {
			return err
		}
		t, ok := b.(Thinking)
		if !ok {
			return mismatch(e, e.Index, b)
		}
		t.Text += e.Text
		t.Signature = append(t.Signature, e.Signature...)
		t.Encrypted = append(t.Encrypted, e.Encrypted...)
		t.Redacted = t.Redacted || e.Redacted
		if e.Format != "" {
			t.Format = e.Format
		}
		if e.ItemID != "" {
			t.ItemID = e.ItemID
		}
		a.msg.Content[e.Index] = t
	case ToolCallStart:
		if e.Index != len(a.msg.Content) {
			return fmt.Errorf("norm: toolcall_start at index %d, want %d (the next block)", e.Index, len(a.msg.Content))
		}
		a.msg.Content = append(a.msg.Content, ToolCall{ID: e.ID, Name: e.Name, ItemID: e.ItemID, Producer: a.msg.Provider})
		if a.args == nil {
			a.args = make(map[int]*strings.Builder)
		}
		a.args[e.Index] = &strings.Builder{}
	case ToolCallDelta:
		sb, ok := a.args[e.Index]
		if !ok {
			return fmt.Errorf("norm: toolcall_delta for index %d, which is not an open tool call", e.Index)
		}
		sb.WriteString(e.Arguments)
	case ToolCallEnd:
		if _, ok := a.args[e.Index]; !ok {
			return fmt.Errorf("norm: toolcall_end for index %d, which is not an open tool call", e.Index)
		}
		a.closeCall(e.Index, e.Signature)
	case OtherBlock:
		if e.Index != len(a.msg.Content) {
			return fmt.Errorf("norm: other block at index %d, want %d (the next block)", e.Index, len(a.msg.Content))
		}
		a.msg.Content = append(a.msg.Content, Other{Type: e.Type, Raw: append(json.RawMessage(nil), e.Raw...), Producer: a.msg.Provider})
	case Done:
		a.closeAll()
		a.msg.Stop, a.msg.StopRaw, a.msg.Usage = e.Reason, e.Raw, e.Usage
		a.terminal = true
	case StreamError:
		a.closeAll()
		a.msg.Error, a.msg.StopRaw, a.msg.Usage = e.Err, e.Raw, e.Usage
		a.terminal = true
	}
	return nil
}

// Message returns the message assembled so far. Tool calls still open are
// reported with the arguments received so far, validated.
func (a *Assembler) Message() AssistantMessage {
	m := a.msg
	m.Content = append([]Content(nil), a.msg.Content...)
	for i, sb := range a.args {
		tc := m.Content[i].(ToolCall)
		tc.Arguments, tc.ArgumentsError = FinishArguments(sb.String())
		m.Content[i] = tc
	}
	return m
}

func (a *Assembler) closeAll() {
	for i := range a.args {
		a.closeCall(i, nil)
	}
}

func (a *Assembler) closeCall(i int, sig []byte) {
	tc := a.msg.Content[i].(ToolCall)
	tc.Arguments, tc.ArgumentsError = FinishArguments(a.args[i].String())
	tc.Signature = append(tc.Signature, sig...)
	a.msg.Content[i] = tc
	delete(a.args, i)
}

// FinishArguments validates assembled tool-call arguments: empty or
// all-space text is the empty object; text that is not a JSON object is
// returned as a JSON string with a reason, so the call is never executed.
func FinishArguments(raw string) (json.RawMessage, string) {
	if strings.TrimSpace(raw) == "" {
		return json.RawMessage("{}"), ""
	}
	if !json.Valid([]byte(raw)) {
		q, _ := json.Marshal(raw)
		return q, fmt.Sprintf("arguments are not valid JSON (%d bytes; cut off by a length stop?)", len(raw))
	}
	if t := strings.TrimSpace(raw); t[0] != '{' {
		q, _ := json.Marshal(raw)
		return q, fmt.Sprintf("arguments are JSON but not an object (starts with %q)", t[:1])
	}
	return json.RawMessage(raw), ""
}

func block(a *Assembler, i int, fresh Content) (Content, error) {
	switch {
	case i == len(a.msg.Content):
		a.msg.Content = append(a.msg.Content, fresh)
		return fresh, nil
	case i >= 0 && i < len(a.msg.Content):
		return a.msg.Content[i], nil
	}
	return nil, fmt.Errorf("norm: delta at index %d, but only %d blocks exist; indexes must not skip", i, len(a.msg.Content))
}

func mismatch(e Event, i int, b Content) error {
	return fmt.Errorf("norm: %T at index %d, but that block is a %T", e, i, b)
}
