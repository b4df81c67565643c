package openaichat

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/sse"
)

// Decoder decodes one Chat Completions event stream. Create it with
// [NewDecoder]; it is used by one goroutine at a time.
type Decoder struct {
	provider string
	framer   sse.Framer
	em       norm.Emitter
	emitFn   func(sse.Item)

	started   bool
	id, model string
	cur       int            // index of the block text/thinking deltas go to, -1 for none
	curKind   string         // "text" or "thinking"
	calls     map[string]int // tool-call key → block index
	open      map[int]bool   // tool-call blocks not yet ended
	lastCall  string
	anonCalls int
	stopRaw   string
	usageRaw  []byte

	scan     jsonscan.Decoder // reads the chunks
	chunk    chunk
	partScan jsonscan.Decoder // reads content parts
	parts    []contentPart
	key      []byte // the tool-call key being looked up
}

// contentPart is one typed part of a delta's content array.
type contentPart struct {
	typ, text jsonscan.String
	thinking  []byte // the texts of the thinking entries, joined
}

// NewDecoder returns a decoder whose events name provider (for example
// "openai" or "openrouter") as the producer of opaque payloads.
func NewDecoder(provider string) *Decoder {
	d := &Decoder{provider: provider, cur: -1, calls: map[string]int{}, open: map[int]bool{}}
	d.emitFn = d.item
	return d
}

// Feed implements norm.Decoder.
func (d *Decoder) Feed(chunk []byte) []norm.Event {
	d.em.Reset()
	d.framer.Feed(chunk, d.emitFn)
	return d.em.Events()
}

// Close implements norm.Decoder: a body that ended after a finish_reason is
// complete even without [DONE]; otherwise it is truncated.
func (d *Decoder) Close() []norm.Event {
	d.em.Reset()
	d.framer.Close(d.emitFn)
	d.finish()
	return d.em.Events()
}

// Framing implements norm.Decoder.
func (d *Decoder) Framing() norm.Framing {
	s := d.framer.Stats()
	return norm.Framing{LineEndings: string(s.LineEndings), EventLines: s.EventLines, Events: s.Events,
		CommentLines: s.CommentLines, Done: s.Done, NonSSE: s.NonSSE}
}

func (d *Decoder) item(it sse.Item) {
	if d.em.Ended() {
		return
	}
	if it.Kind == sse.KindText {
		d.fail(&norm.Error{Kind: norm.ErrMalformed, Message: fmt.Sprintf("openaichat: unexpected non-SSE line %.80q in the event stream", it.Data)})
		return
	}
	if it.Done {
		d.finish()
		return
	}
	c := &d.chunk
	if err := c.read(&d.scan, it.Data); err != nil {
		d.fail(&norm.Error{Kind: norm.ErrMalformed, Message: fmt.Sprintf("openaichat: chunk is not JSON (%v): %.80q", err, it.Data)})
		return
	}
	if d.id == "" && !c.id.Empty() {
		d.id = c.id.String()
	}
	if d.model == "" && !c.model.Empty() {
		d.model = c.model.String()
	}
	if !d.started && (d.id != "" || len(c.choices) > 0) {
		d.started = true
		d.em.Emit(norm.Start{Provider: d.provider, Model: d.model, ResponseID: d.id})
	}
	if len(c.err) > 0 && string(c.err) != "null" {
		d.setUsage(c.usage)
		d.fail(streamError(c.err))
		return
	}
	for i := range c.choices {
		ch := &c.choices[i]
		d.delta(&ch.delta)
		if !ch.finishReason.Empty() {
			d.stopRaw = ch.finishReason.String()
			d.endCalls()
		}
		d.setUsage(ch.usage)
	}
	d.setUsage(c.groqUsage)
	d.setUsage(c.usage)
	if d.stopRaw == "error" {
		d.fail(&norm.Error{Kind: norm.ErrServer, Retryable: true,
			Message: "openaichat: the server ended the stream with finish_reason \"error\" and no error object"})
	}
}

func (d *Decoder) setUsage(raw []byte) {
	if len(raw) > 0 && string(raw) != "null" {
		d.usageRaw = append(d.usageRaw[:0], raw...)
	}
}

func (d *Decoder) delta(w *delta) {
	reasoning := w.reasoningContent
	if reasoning.Empty() {
		reasoning = w.reasoning
	}
	if reasoning.Empty() {
		reasoning = w.reasoningText
	}
	if !reasoning.Empty() {
		d.thinking(norm.ThinkingDelta{Text: reasoning.String()})
	}
	for i := range w.reasoningDetails {
		rd := &w.reasoningDetails[i]
		t := norm.ThinkingDelta{Format: rd.format.String()}
		if reasoning.Empty() {
			text := rd.text
			if text.Empty() {
				text = rd.summary
			}
			t.Text = text.String()
		}
		if !rd.signature.Empty() {
			t.Signature = rd.signature.Bytes()
		}
		if !rd.data.Empty() && rd.typ.Equal("reasoning.encrypted") {
			t.Encrypted = rd.data.Bytes()
		}
		if t.Text != "" || t.Signature != nil || t.Encrypted != nil {
			d.thinking(t)
		}
	}
	d.content(w.content)
	if !w.refusal.Empty() {
		d.text(w.refusal.String())
	}
	for i := range w.toolCalls {
		d.toolCall(&w.toolCalls[i])
	}
}

// toolCall handles one tool_calls entry. Entries are matched to their
// call by index, else by id, else they continue the last call.
func (d *Decoder) toolCall(tc *toolCall) {
	key := d.key[:0]
	switch {
	case tc.hasIndex:
		key = strconv.AppendInt(append(key, 'i'), tc.index, 10)
	case !tc.id.Empty():
		key = append(append(key, "id:"...), tc.id.String()...)
	case d.lastCall != "":
		key = append(key, d.lastCall...)
	default:
		d.anonCalls++
		key = strconv.AppendInt(append(key, "anon"...), int64(d.anonCalls), 10)
	}
	d.key = key
	idx, ok := d.calls[string(key)]
	if !ok {
		idx = d.em.Open()
		d.calls[string(key)] = idx
		d.open[idx] = true
		d.em.Emit(norm.ToolCallStart{Index: idx, ID: tc.id.String(), Name: tc.name.String()})
	}
	if d.lastCall != string(key) {
		d.lastCall = string(key)
	}
	d.cur = -1
	if !tc.args.Empty() && d.open[idx] {
		d.em.Emit(norm.ToolCallDelta{Index: idx, Arguments: tc.args.String()})
	}
}

// content handles delta.content: a string, null, or (Mistral Magistral) an
// array of typed parts; parts of another shape are ignored.
func (d *Decoder) content(raw []byte) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	if raw[0] == '"' {
		if s := jsonscan.String(raw); !s.Empty() {
			d.text(s.String())
		}
		return
	}
	d.parts = d.parts[:0]
	s := &d.partScan
	s.Reset(raw)
	s.Array(func() {
		d.parts = grow(d.parts)
		p := &d.parts[len(d.parts)-1]
		s.Object(func(key []byte) {
			switch string(key) {
			case "type":
				p.typ = s.Str()
			case "text":
				p.text = s.Str()
			case "thinking":
				p.thinking = p.thinking[:0]
				s.Array(func() {
					s.Object(func(key []byte) {
						if string(key) == "text" {
							p.thinking = append(p.thinking, s.Str().String()...)
						}
					})
				})
			}
		})
	})
	if s.Finish() != nil {
		return
	}
	for i := range d.parts {
		switch p := &d.parts[i]; {
		case p.typ.Equal("text"):
			if !p.text.Empty() {
				d.text(p.text.String())
			}
		case p.typ.Equal("thinking"):
			if len(p.thinking) > 0 {
				d.thinking(norm.ThinkingDelta{Text: string(p.thinking)})
			}
		}
	}
}

func (d *Decoder) text(s string) {
	if d.curKind != "text" || d.cur < 0 {
		d.cur, d.curKind = d.em.Open(), "text"
	}
	d.em.Emit(norm.TextDelta{Index: d.cur, Text: s})
}

func (d *Decoder) thinking(t norm.ThinkingDelta) {
	if d.curKind != "thinking" || d.cur < 0 {
		d.cur, d.curKind = d.em.Open(), "thinking"
	}
	t.Index = d.cur
	d.em.Emit(t)
}

func (d *Decoder) endCalls() {
	idxs := make([]int, 0, len(d.open))
	for i, open := range d.open {
		if open {
			idxs = append(idxs, i)
		}
	}
	sort.Ints(idxs)
	for _, i := range idxs {
		d.open[i] = false
		d.em.Emit(norm.ToolCallEnd{Index: i})
	}
}

func (d *Decoder) finish() {
	if d.em.Ended() {
		return
	}
	u := usage(d.usageRaw)
	if d.stopRaw == "" {
		d.em.End(withRaw(norm.Truncated("openaichat", "a finish_reason arrived", u), d.usageRaw))
		return
	}
	d.endCalls()
	reason, ok := stopReasons[d.stopRaw]
	if !ok {
		d.fail(&norm.Error{Kind: norm.ErrServer, Message: fmt.Sprintf("openaichat: unknown finish_reason %q", d.stopRaw)})
		return
	}
	d.em.End(norm.Done{Reason: reason, Raw: d.stopRaw, Usage: u, UsageRaw: d.usageRaw})
}

func withRaw(e norm.StreamError, raw []byte) norm.StreamError {
	e.UsageRaw = raw
	return e
}

func (d *Decoder) fail(e *norm.Error) {
	if e.Kind != "" && !e.Retryable {
		e.Retryable = e.Kind.Retryable()
	}
	d.em.End(norm.StreamError{Err: e, Raw: d.stopRaw, Usage: usage(d.usageRaw), UsageRaw: d.usageRaw})
}

var stopReasons = map[string]norm.StopReason{
	"stop":           norm.StopEnd,
	"end_turn":       norm.StopEnd,
	"tool_calls":     norm.StopToolUse,
	"function_call":  norm.StopToolUse,
	"length":         norm.StopLength,
	"content_filter": norm.StopRefusal,
}
