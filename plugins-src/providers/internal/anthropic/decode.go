package anthropic

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/sse"
)

// Decoder decodes one Messages API event stream. Create it with
// [NewDecoder]; it is used by one goroutine at a time.
type Decoder struct {
	provider string
	framer   sse.Framer
	em       norm.Emitter
	started  bool
	blocks   map[int]*blockState // by the vendor's content-block index
	usage    usageState
	stopRaw  string
	emitFn   func(sse.Item)
	scan     jsonscan.Decoder // reads the events
	event    event
}

type blockState struct {
	kind  string // text, thinking, tool_use, other
	index int    // our block index, -1 until the first event
	raw   json.RawMessage
	input []byte // server-tool input_json_delta fragments
}

// NewDecoder returns a decoder whose events are tagged with provider (the
// producer of signatures), for example "anthropic".
func NewDecoder(provider string) *Decoder {
	d := &Decoder{provider: provider, blocks: make(map[int]*blockState)}
	d.emitFn = d.item
	return d
}

// Feed implements norm.Decoder.
func (d *Decoder) Feed(chunk []byte) []norm.Event {
	d.em.Reset()
	d.framer.Feed(chunk, d.emitFn)
	return d.em.Events()
}

// Close implements norm.Decoder: a body that ended after message_delta
// carried a stop reason is complete even without message_stop; otherwise it
// is truncated.
func (d *Decoder) Close() []norm.Event {
	d.em.Reset()
	d.framer.Close(d.emitFn)
	if !d.em.Ended() {
		if d.stopRaw != "" {
			d.finish()
		} else {
			d.em.End(norm.Truncated("anthropic", "message_delta carried a stop_reason", d.usage.result()))
		}
	}
	return d.em.Events()
}

// Framing implements norm.Decoder.
func (d *Decoder) Framing() norm.Framing { return framing(d.framer.Stats()) }

func framing(s sse.Stats) norm.Framing {
	return norm.Framing{LineEndings: string(s.LineEndings), EventLines: s.EventLines, Events: s.Events,
		CommentLines: s.CommentLines, Done: s.Done, NonSSE: s.NonSSE}
}

func (d *Decoder) item(it sse.Item) {
	if d.em.Ended() {
		return
	}
	if it.Kind == sse.KindText {
		d.fail(norm.ErrMalformed, fmt.Sprintf("anthropic: unexpected non-SSE line %.80q in the event stream", it.Data), "")
		return
	}
	if it.Done {
		return // not part of the protocol; some proxies append it
	}
	ev := &d.event
	if err := ev.read(&d.scan, it.Data); err != nil {
		d.fail(norm.ErrMalformed, fmt.Sprintf("anthropic: event %q: payload is not JSON (%v): %.80q", it.Name, err, it.Data), "")
		return
	}
	index := int(ev.index)
	switch ev.typ.String() {
	case "message_start":
		if !ev.hasMessage || d.started {
			return // a proxy may splice a second message_start; the first one names the response
		}
		d.started = true
		d.usage.merge(&d.scan, ev.message.usage)
		d.em.Emit(norm.Start{Provider: d.provider, Model: ev.message.model.String(), ResponseID: ev.message.id.String()})
	case "content_block_start":
		d.blockStart(index, ev.contentBlock)
	case "content_block_delta":
		if ev.hasDelta {
			d.blockDelta(index, &ev.delta)
		}
	case "content_block_stop":
		d.blockStop(index)
	case "message_delta":
		if ev.hasDelta && ev.delta.stopReason != nil {
			d.stopRaw = ev.delta.stopReason.String()
		}
		d.usage.merge(&d.scan, ev.usage)
	case "message_stop":
		if d.stopRaw == "" {
			d.fail(norm.ErrMalformed, "anthropic: message_stop without a stop_reason in any message_delta", "")
			return
		}
		d.finish()
	case "error":
		e := classifyBody(0, ev.err, "")
		d.em.End(norm.StreamError{Err: e, Usage: d.usage.result(), UsageRaw: d.usage.raw()})
	}
	// ping and unknown event types are ignored.
}

func (d *Decoder) blockStart(i int, raw []byte) {
	var b wireBlock
	if err := b.read(&d.scan, raw); err != nil {
		d.fail(norm.ErrMalformed, fmt.Sprintf("anthropic: content_block_start %d: %v", i, err), "")
		return
	}
	st := &blockState{kind: b.Type, index: -1}
	d.blocks[i] = st
	switch b.Type {
	case "text":
		if b.Text != "" {
			d.em.Emit(norm.TextDelta{Index: d.indexOf(st), Text: b.Text})
		}
	case "thinking":
		if b.Thinking != "" || b.Signature != "" {
			d.em.Emit(norm.ThinkingDelta{Index: d.indexOf(st), Text: b.Thinking, Signature: []byte(b.Signature)})
		}
	case "redacted_thinking":
		st.kind = "thinking"
		d.em.Emit(norm.ThinkingDelta{Index: d.indexOf(st), Redacted: true, Encrypted: []byte(b.Data)})
	case "tool_use":
		d.em.Emit(norm.ToolCallStart{Index: d.indexOf(st), ID: b.ID, Name: b.Name})
	default:
		st.kind = "other"
		st.raw = append(json.RawMessage(nil), raw...)
	}
}

func (d *Decoder) indexOf(st *blockState) int {
	if st.index < 0 {
		st.index = d.em.Open()
	}
	return st.index
}

func (d *Decoder) blockDelta(i int, w *deltaFields) {
	st, ok := d.blocks[i]
	if !ok {
		d.fail(norm.ErrMalformed, fmt.Sprintf("anthropic: content_block_delta for block %d, which was never started", i), "")
		return
	}
	switch {
	case w.typ.Equal("text_delta") && st.kind == "text":
		d.em.Emit(norm.TextDelta{Index: d.indexOf(st), Text: w.text.String()})
	case w.typ.Equal("thinking_delta") && st.kind == "thinking":
		d.em.Emit(norm.ThinkingDelta{Index: d.indexOf(st), Text: w.thinking.String()})
	case w.typ.Equal("signature_delta") && st.kind == "thinking":
		d.em.Emit(norm.ThinkingDelta{Index: d.indexOf(st), Signature: []byte(w.signature.String())})
	case w.typ.Equal("input_json_delta") && st.kind == "tool_use":
		d.em.Emit(norm.ToolCallDelta{Index: d.indexOf(st), Arguments: w.partialJSON.String()})
	case w.typ.Equal("input_json_delta") && st.kind == "other":
		st.input = append(st.input, w.partialJSON.String()...)
	}
	// citations_delta and unknown delta types carry nothing we send back.
}

func (d *Decoder) blockStop(i int) {
	st, ok := d.blocks[i]
	if !ok {
		return
	}
	delete(d.blocks, i)
	switch st.kind {
	case "tool_use":
		d.em.Emit(norm.ToolCallEnd{Index: d.indexOf(st)})
	case "other":
		d.em.Emit(norm.OtherBlock{Index: d.indexOf(st), Type: otherType(st.raw), Raw: withInput(&d.scan, st.raw, st.input)})
	}
}

func otherType(raw json.RawMessage) string {
	var b struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(raw, &b)
	return b.Type
}

func (d *Decoder) finish() {
	open := make([]int, 0, len(d.blocks)) // blocks left open: close them in order
	for i := range d.blocks {
		open = append(open, i)
	}
	sort.Ints(open)
	for _, i := range open {
		d.blockStop(i)
	}
	u := d.usage.result()
	switch reason, ok := stopReasons[d.stopRaw]; {
	case ok:
		d.em.End(norm.Done{Reason: reason, Raw: d.stopRaw, Usage: u, UsageRaw: d.usage.raw()})
	default:
		d.em.End(norm.StreamError{Raw: d.stopRaw, Usage: u, UsageRaw: d.usage.raw(), Err: &norm.Error{Kind: norm.ErrServer,
			Message: fmt.Sprintf("anthropic: unknown stop_reason %q; the response may be incomplete", d.stopRaw)}})
	}
}

func (d *Decoder) fail(k norm.ErrorKind, msg, raw string) {
	d.em.End(norm.StreamError{Err: &norm.Error{Kind: k, Message: msg, Retryable: k.Retryable()}, Raw: raw, Usage: d.usage.result(), UsageRaw: d.usage.raw()})
}

var stopReasons = map[string]norm.StopReason{
	"end_turn":                      norm.StopEnd,
	"stop_sequence":                 norm.StopEnd,
	"pause_turn":                    norm.StopEnd,
	"tool_use":                      norm.StopToolUse,
	"max_tokens":                    norm.StopLength,
	"model_context_window_exceeded": norm.StopLength,
	"refusal":                       norm.StopRefusal,
}
