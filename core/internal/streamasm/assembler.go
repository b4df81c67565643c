package streamasm

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/model"
)

type blockKind uint8

const (
	kindText blockKind = iota + 1
	kindThinking
	kindToolCall
)

// String names the kind for messages.
func (k blockKind) String() string {
	switch k {
	case kindText:
		return "text"
	case kindThinking:
		return "thinking"
	}
	return "tool call"
}

// block is one content block under construction.
type block struct {
	kind      blockKind
	text      textBuffer
	signature []byte
	encrypted []byte
	redacted  bool
	id, name  string
	ended     bool
}

// Assembler turns the events of one provider stream into an
// [model.AssistantMessage]. The zero Assembler is ready to use. It is not
// safe for concurrent use.
type Assembler struct {
	blocks   []*block
	ids      map[string]int
	msg      model.AssistantMessage
	started  bool
	terminal string // discriminator of the terminal event, "" while open
	failure  *model.Error
	events   int
}

// Push adds the next event. It returns a [model.Error] of kind
// [model.ErrMalformed] naming the offending event and its position when the
// event breaks the protocol; after that every Push returns the same error and
// [Assembler.Message] reports it.
func (a *Assembler) Push(ev model.StreamEvent) error {
	if a.failure != nil {
		return a.failure
	}
	a.events++
	if err := a.push(ev); err != "" {
		a.failure = model.NewError(model.ErrMalformed, "provider stream event %d (%s): %s",
			a.events, model.StreamEventType(ev), err)
		return a.failure
	}
	return nil
}

// Terminated reports whether a terminal event (done or error) was pushed.
func (a *Assembler) Terminated() bool { return a.terminal != "" }

func (a *Assembler) push(ev model.StreamEvent) string {
	if a.terminal != "" {
		return "arrived after the terminal " + a.terminal + " event; a stream has exactly one terminal event"
	}
	if st, ok := ev.(model.Start); ok {
		if a.started {
			return "second start event"
		}
		a.started = true
		a.msg.Provider, a.msg.Model, a.msg.ResponseID = st.Provider, st.Model, st.ResponseID
		return ""
	}
	if _, failed := ev.(model.StreamError); !a.started && !failed {
		// An error may end a stream that never started: the request was
		// refused (HTTP status, transport, credentials) before any output.
		return "arrived before start; the first event of a stream must be start (or an error)"
	}
	switch e := ev.(type) {
	case model.TextDelta:
		b, err := a.block(e.Index, kindText, true)
		if err != "" {
			return err
		}
		b.text.WriteString(e.Text)
		b.signature = append(b.signature, e.Signature...)
	case model.ThinkingDelta:
		b, err := a.block(e.Index, kindThinking, true)
		if err != "" {
			return err
		}
		b.text.WriteString(e.Text)
		b.signature = append(b.signature, e.Signature...)
		b.encrypted = append(b.encrypted, e.Encrypted...)
		b.redacted = b.redacted || e.Redacted
	case model.ToolCallStart:
		if e.Index != len(a.blocks) {
			return fmt.Sprintf("index %d must open a new block at index %d", e.Index, len(a.blocks))
		}
		if e.ID == "" || e.Name == "" {
			return fmt.Sprintf("tool call at index %d has an empty id (%q) or name (%q)", e.Index, e.ID, e.Name)
		}
		if prev, dup := a.ids[e.ID]; dup {
			return fmt.Sprintf("tool call id %q at index %d repeats the call at index %d", e.ID, e.Index, prev)
		}
		if a.ids == nil {
			a.ids = make(map[string]int)
		}
		a.ids[e.ID] = e.Index
		a.blocks = append(a.blocks, &block{kind: kindToolCall, id: e.ID, name: e.Name})
	case model.ToolCallDelta:
		b, err := a.block(e.Index, kindToolCall, false)
		if err != "" {
			return err
		}
		b.text.WriteString(e.Arguments)
	case model.ToolCallEnd:
		b, err := a.block(e.Index, kindToolCall, false)
		if err != "" {
			return err
		}
		b.signature = append(b.signature, e.Signature...)
		b.ended = true
	case model.Done:
		return a.done(e)
	case model.StreamError:
		if e.Err == nil || !e.Err.Kind.Valid() {
			return "error event without a valid error kind"
		}
		a.terminal = "error"
		err := *e.Err
		a.msg.Error = &err
		a.msg.Usage = e.Usage
	default:
		return fmt.Sprintf("unknown event %T", ev)
	}
	return ""
}

// block returns the block at index, opening it when index is the next free
// position and open is allowed.
func (a *Assembler) block(index int, kind blockKind, open bool) (*block, string) {
	switch {
	case index < 0 || index > len(a.blocks):
		return nil, fmt.Sprintf("index %d is out of range: %d blocks so far", index, len(a.blocks))
	case index == len(a.blocks):
		if !open {
			return nil, fmt.Sprintf("no tool call was started at index %d", index)
		}
		b := &block{kind: kind}
		a.blocks = append(a.blocks, b)
		return b, ""
	}
	b := a.blocks[index]
	if b.kind != kind {
		return nil, fmt.Sprintf("index %d is a %s block, not a %s block", index, b.kind, kind)
	}
	if b.ended {
		return nil, fmt.Sprintf("tool call %q at index %d already ended", b.id, index)
	}
	return b, ""
}

func (a *Assembler) done(e model.Done) string {
	if !e.Reason.Valid() {
		return fmt.Sprintf("unknown stop reason %q", e.Reason)
	}
	calls := 0
	for i, b := range a.blocks {
		if b.kind != kindToolCall {
			continue
		}
		calls++
		if !b.ended && e.Reason != model.StopLength {
			return fmt.Sprintf("tool call %q at index %d never ended before done(%s)", b.id, i, e.Reason)
		}
	}
	switch {
	case e.Reason == model.StopToolUse && calls == 0:
		return "stop reason tool_use without any tool call"
	case calls > 0 && e.Reason != model.StopToolUse && e.Reason != model.StopLength:
		return fmt.Sprintf("stop reason %s with %d tool calls; a stream with tool calls stops with tool_use (or length)", e.Reason, calls)
	}
	a.terminal = "done"
	a.msg.Stop = e.Reason
	a.msg.Usage = e.Usage
	return ""
}

// Abort ends an unterminated stream as cancelled: [Assembler.Message] then
// reports err (its kind is normally [model.ErrAborted]). It does nothing
// once the stream has terminated or failed.
func (a *Assembler) Abort(err *model.Error) {
	if a.terminal == "" && a.failure == nil {
		a.failure = err
	}
}

// Message returns the assembled message. Call it once the stream is over.
// If the stream failed, the message carries the error and the content that
// arrived before it; if it ended without a terminal event, the error is
// [model.ErrTruncated]. Tool calls whose arguments are not valid JSON, or
// never ended, carry an ArgumentsError and must not be executed.
func (a *Assembler) Message() model.AssistantMessage {
	m := a.msg
	switch {
	case a.failure != nil:
		m.Stop = ""
		m.Error = a.failure
	case a.terminal == "":
		m.Error = model.NewError(model.ErrTruncated,
			"the provider stream ended after %d events without a done or error event", a.events)
	}
	m.Content = make([]model.Content, 0, len(a.blocks))
	for _, b := range a.blocks {
		m.Content = append(m.Content, b.content(a.msg.Provider))
	}
	return m
}

func (b *block) content(producer string) model.Content {
	if len(b.signature) == 0 && len(b.encrypted) == 0 {
		producer = ""
	}
	switch b.kind {
	case kindText:
		return model.Text{Text: b.text.String(), Signature: b.signature, Producer: producer}
	case kindThinking:
		return model.Thinking{Text: b.text.String(), Signature: b.signature,
			Encrypted: b.encrypted, Redacted: b.redacted, Producer: producer}
	}
	tc := model.ToolCall{ID: b.id, Name: b.name, Signature: b.signature, Producer: producer}
	raw := strings.TrimSpace(b.text.String())
	switch {
	case !b.ended:
		tc.ArgumentsError = "the arguments were cut off before the tool call ended"
	case raw == "":
		raw = "{}"
	case !json.Valid([]byte(raw)):
		tc.ArgumentsError = "the arguments are not valid JSON"
	}
	if tc.ArgumentsError != "" {
		tc.Arguments, _ = json.Marshal(raw)
	} else {
		tc.Arguments = json.RawMessage(raw)
	}
	return tc
}
