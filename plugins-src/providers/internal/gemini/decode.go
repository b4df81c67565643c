package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/sse"
)

// maxErrorText bounds the non-SSE text collected while waiting for a bare
// JSON error object to complete (real ones are a few hundred bytes).
const maxErrorText = 64 << 10

// Decoder decodes one streamGenerateContent?alt=sse body. Create it with
// [NewDecoder]; it is used by one goroutine at a time.
type Decoder struct {
	provider string
	framer   sse.Framer
	em       norm.Emitter
	emitFn   func(sse.Item)

	started    bool
	responseID string
	cur        int    // block text/thought parts continue, -1 for none
	curKind    string // "text" or "thinking"
	calls      int
	anyCall    bool
	streaming  *streamCall // a Vertex call whose arguments are streaming
	stopRaw    string
	blockRaw   string // promptFeedback.blockReason
	usage      usageState
	text       []byte           // non-SSE text lines, a JSON error object in the making
	scan       jsonscan.Decoder // reads chunks, usage and parts
	chunk      chunk
	part1      part // the part being read
}

// NewDecoder returns a decoder whose events name provider (for example
// "google") as the producer of thought signatures.
func NewDecoder(provider string) *Decoder {
	d := &Decoder{provider: provider, cur: -1}
	d.emitFn = d.item
	return d
}

// Feed implements norm.Decoder.
func (d *Decoder) Feed(chunk []byte) []norm.Event {
	d.em.Reset()
	d.framer.Feed(chunk, d.emitFn)
	return d.em.Events()
}

// Close implements norm.Decoder. Gemini streams have no terminal event: the
// response is complete when the body ends after a chunk with a
// finishReason (or a promptFeedback.blockReason) and no error followed.
func (d *Decoder) Close() []norm.Event {
	d.em.Reset()
	d.framer.Close(d.emitFn)
	if d.em.Ended() {
		return d.em.Events()
	}
	if len(bytes.TrimSpace(d.text)) > 0 {
		d.fail(&norm.Error{Kind: norm.ErrMalformed, Message: fmt.Sprintf("gemini: the body ended with non-SSE text that is not a JSON error object: %.120q", d.text)})
		return d.em.Events()
	}
	if d.streaming != nil {
		d.endStreaming()
	}
	u, raw := d.usage.result(), d.usage.raw
	switch {
	case d.blockRaw != "":
		d.em.End(norm.Done{Reason: norm.StopRefusal, Raw: d.blockRaw, Usage: u, UsageRaw: raw})
	case d.stopRaw == "":
		e := norm.Truncated("gemini", "a chunk with a finishReason arrived", u)
		e.UsageRaw = raw
		d.em.End(e)
	default:
		reason, ok := finishReasons[d.stopRaw]
		switch {
		case !ok:
			d.fail(&norm.Error{Kind: norm.ErrServer, ProviderType: d.stopRaw,
				Message: fmt.Sprintf("gemini: the model stopped with finishReason %s", d.stopRaw)})
		case reason == norm.StopEnd && d.anyCall:
			d.em.End(norm.Done{Reason: norm.StopToolUse, Raw: d.stopRaw, Usage: u, UsageRaw: raw})
		default:
			d.em.End(norm.Done{Reason: reason, Raw: d.stopRaw, Usage: u, UsageRaw: raw})
		}
	}
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
		// Gemini may append a bare (pretty-printed) JSON error object
		// outside the SSE framing; collect lines until it parses.
		d.text = append(append(d.text, it.Data...), '\n')
		if len(d.text) > maxErrorText {
			d.fail(&norm.Error{Kind: norm.ErrMalformed, Message: fmt.Sprintf("gemini: more than %d bytes of non-SSE text in the body, not a JSON error object: %.120q", maxErrorText, d.text)})
			return
		}
		if json.Valid(d.text) {
			d.fail(errorObject(0, d.text))
			d.text = d.text[:0]
		}
		return
	}
	if it.Done {
		return
	}
	c := &d.chunk
	if err := c.read(&d.scan, it.Data); err != nil {
		d.fail(&norm.Error{Kind: norm.ErrMalformed, Message: fmt.Sprintf("gemini: chunk is not JSON (%v): %.80q", err, it.Data)})
		return
	}
	if len(c.err) > 0 && string(c.err) != "null" {
		d.fail(errorObject(0, it.Data))
		return
	}
	if !d.started {
		d.started = true
		d.responseID = c.responseID.String()
		d.em.Emit(norm.Start{Provider: d.provider, Model: c.modelVersion.String(), ResponseID: d.responseID})
	}
	d.usage.merge(&d.scan, c.usage)
	if c.hasFeedback && !c.blockReason.Empty() {
		d.blockRaw = c.blockReason.String()
	}
	for i := range c.candidates[:min(len(c.candidates), 1)] {
		cand := &c.candidates[i]
		if cand.hasContent {
			for _, raw := range cand.parts {
				d.part(raw)
			}
		}
		if !cand.finishReason.Empty() {
			d.stopRaw = cand.finishReason.String()
		}
	}
}

// part handles one content part; a part that is not an object of the
// known shape is ignored. A part of another kind (inline data, code) is
// sent back whole, typed by the name of its first member other than
// thoughtSignature.
func (d *Decoder) part(raw []byte) {
	p := &d.part1
	if p.read(&d.scan, raw) != nil {
		return
	}
	sig := []byte(nil)
	if !p.signature.Empty() {
		sig = p.signature.Bytes()
	}
	switch {
	case p.call:
		d.functionCall(&p.fc, sig)
	case p.text != nil && p.thought:
		if !p.text.Empty() {
			d.open("thinking")
			d.em.Emit(norm.ThinkingDelta{Index: d.cur, Text: p.text.String()})
		}
		if sig != nil {
			d.open("thinking")
			d.em.Emit(norm.ThinkingDelta{Index: d.cur, Signature: sig})
		}
	case p.text != nil:
		if !p.text.Empty() {
			d.open("text")
			d.em.Emit(norm.TextDelta{Index: d.cur, Text: p.text.String()})
		}
		if sig != nil {
			// A signature on a trailing empty text part belongs to the
			// text before it; with no text before, it gets its own block
			// so it is still sent back.
			d.open("text")
			d.em.Emit(norm.TextDelta{Index: d.cur, Signature: sig})
		}
	default:
		typ := "part"
		if p.hasKind {
			typ = string(p.kind)
		}
		d.cur = -1
		d.em.Emit(norm.OtherBlock{Index: d.em.Open(), Type: typ, Raw: append([]byte(nil), raw...)})
	}
}

func (d *Decoder) open(kind string) {
	if d.cur < 0 || d.curKind != kind {
		d.cur, d.curKind = d.em.Open(), kind
	}
}

func (d *Decoder) callID(id string) string {
	d.calls++
	if id != "" {
		return id
	}
	// Gemini 2.5 gives calls no id; a made-up one pairs the result.
	return fmt.Sprintf("gemini_%s_%d", d.responseID, d.calls)
}

func (d *Decoder) functionCall(fc *wireCall, sig []byte) {
	d.cur = -1
	d.anyCall = true
	switch {
	case d.streaming != nil && fc.Name == "" && len(fc.PartialArgs) == 0 && !fc.WillContinue:
		d.endStreaming() // the empty functionCall {} ends a streamed call
	case d.streaming != nil && len(fc.PartialArgs) > 0:
		d.streaming.add(d, fc.PartialArgs)
	case fc.WillContinue && len(fc.Args) == 0:
		if d.streaming != nil {
			d.endStreaming()
		}
		idx := d.em.Open()
		d.streaming = &streamCall{index: idx, sig: sig}
		d.em.Emit(norm.ToolCallStart{Index: idx, ID: d.callID(fc.ID), Name: fc.Name})
		if len(fc.PartialArgs) > 0 {
			d.streaming.add(d, fc.PartialArgs)
		}
	default:
		idx := d.em.Open()
		d.em.Emit(norm.ToolCallStart{Index: idx, ID: d.callID(fc.ID), Name: fc.Name})
		args := fc.Args
		if len(args) == 0 || string(args) == "null" {
			args = []byte("{}")
		}
		d.em.Emit(norm.ToolCallDelta{Index: idx, Arguments: string(args)})
		d.em.Emit(norm.ToolCallEnd{Index: idx, Signature: sig})
	}
}

func (d *Decoder) endStreaming() {
	s := d.streaming
	d.streaming = nil
	s.flush(d, true)
	d.em.Emit(norm.ToolCallEnd{Index: s.index, Signature: s.sig})
}

func (d *Decoder) fail(e *norm.Error) {
	if !e.Retryable {
		e.Retryable = e.Kind.Retryable()
	}
	d.em.End(norm.StreamError{Err: e, Raw: d.stopRaw, Usage: d.usage.result(), UsageRaw: d.usage.raw})
}

var finishReasons = map[string]norm.StopReason{
	"STOP":                     norm.StopEnd,
	"MAX_TOKENS":               norm.StopLength,
	"SAFETY":                   norm.StopRefusal,
	"RECITATION":               norm.StopRefusal,
	"BLOCKLIST":                norm.StopRefusal,
	"PROHIBITED_CONTENT":       norm.StopRefusal,
	"SPII":                     norm.StopRefusal,
	"LANGUAGE":                 norm.StopRefusal,
	"IMAGE_SAFETY":             norm.StopRefusal,
	"IMAGE_PROHIBITED_CONTENT": norm.StopRefusal,
	"IMAGE_RECITATION":         norm.StopRefusal,
	"IMAGE_OTHER":              norm.StopRefusal,
	"NO_IMAGE":                 norm.StopRefusal,
}
