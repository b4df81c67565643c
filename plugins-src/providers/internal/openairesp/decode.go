package openairesp

import (
	"fmt"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openaichat"
	"github.com/smith-agent/smith/plugins-src/providers/internal/sse"
)

// Decoder decodes one Responses API event stream. Create it with
// [NewDecoder]; it is used by one goroutine at a time.
type Decoder struct {
	provider string
	framer   sse.Framer
	em       norm.Emitter
	emitFn   func(sse.Item)

	started  bool
	items    map[string]*itemState // by item id
	anyCall  bool
	pending  *norm.Error // an "error" event, reported when the response ends
	usageRaw []byte
	scan     jsonscan.Decoder // reads the events
}

type itemState struct {
	typ       string
	index     int // block index, -1 until the first event
	summary   int // summary_index of the last reasoning delta
	gotArgs   bool
	phase     string // message phase (commentary, final_answer), from output_item.added
	itemIDOut bool   // the block's first event (which carries ItemID) was emitted
}

// NewDecoder returns a decoder whose events name provider (for example
// "openai") as the producer of encrypted reasoning.
func NewDecoder(provider string) *Decoder {
	d := &Decoder{provider: provider, items: map[string]*itemState{}}
	d.emitFn = d.item
	return d
}

// Feed implements norm.Decoder.
func (d *Decoder) Feed(chunk []byte) []norm.Event {
	d.em.Reset()
	d.framer.Feed(chunk, d.emitFn)
	return d.em.Events()
}

// Close implements norm.Decoder: without a terminal response event the
// stream is truncated (or failed, when an error event arrived).
func (d *Decoder) Close() []norm.Event {
	d.em.Reset()
	d.framer.Close(d.emitFn)
	if !d.em.Ended() {
		if d.pending != nil {
			d.em.End(norm.StreamError{Err: d.pending, Usage: usage(d.usageRaw), UsageRaw: d.usageRaw})
		} else {
			e := norm.Truncated("openairesp", "a response.completed, response.incomplete or response.failed event", usage(d.usageRaw))
			e.UsageRaw = d.usageRaw
			d.em.End(e)
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
		d.fail(&norm.Error{Kind: norm.ErrMalformed, Message: fmt.Sprintf("openairesp: unexpected non-SSE line %.80q in the event stream", it.Data)}, "")
		return
	}
	if it.Done {
		return
	}
	var ev wireEvent
	if err := ev.read(&d.scan, it.Data); err != nil {
		d.fail(&norm.Error{Kind: norm.ErrMalformed, Message: fmt.Sprintf("openairesp: event %q: payload is not JSON (%v): %.80q", it.Name, err, it.Data)}, "")
		return
	}
	if r := ev.Response; r != nil && !d.started {
		d.started = true
		d.em.Emit(norm.Start{Provider: d.provider, Model: r.Model, ResponseID: r.ID})
	}
	switch ev.Type {
	case "response.output_item.added":
		d.itemAdded(ev.Item)
	case "response.output_text.delta", "response.refusal.delta":
		if st := d.state(ev.ItemID, "message"); ev.Delta != "" {
			td := norm.TextDelta{Index: d.indexOf(st), Text: ev.Delta}
			if !st.itemIDOut {
				td.ItemID, td.Phase, st.itemIDOut = ev.ItemID, st.phase, true
			}
			d.em.Emit(td)
		}
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		st := d.state(ev.ItemID, "reasoning")
		text := ev.Delta
		if ev.Type == "response.reasoning_summary_text.delta" && ev.SummaryIndex != st.summary {
			st.summary = ev.SummaryIndex
			text = "\n\n" + text // summary parts are paragraphs
		}
		if text != "" {
			td := norm.ThinkingDelta{Index: d.indexOf(st), Text: text}
			if !st.itemIDOut {
				td.ItemID, st.itemIDOut = ev.ItemID, true
			}
			d.em.Emit(td)
		}
	case "response.function_call_arguments.delta":
		if st, ok := d.items[ev.ItemID]; ok && st.typ == "function_call" {
			st.gotArgs = true
			d.em.Emit(norm.ToolCallDelta{Index: d.indexOf(st), Arguments: ev.Delta})
		}
	case "response.output_item.done":
		d.itemDone(ev.Item)
	case "error":
		w := ev.Error
		if w == nil {
			w = &openaichat.WireError{Code: ev.Code, Message: ev.Message}
		}
		d.pending = openaichat.Classify(0, w)
	case "response.completed", "response.done", "response.incomplete", "response.failed":
		d.terminal(ev)
	}
}

func (d *Decoder) state(id, typ string) *itemState {
	st, ok := d.items[id]
	if !ok {
		st = &itemState{typ: typ, index: -1}
		d.items[id] = st
	}
	return st
}

func (d *Decoder) indexOf(st *itemState) int {
	if st.index < 0 {
		st.index = d.em.Open()
	}
	return st.index
}

func (d *Decoder) itemAdded(raw []byte) {
	var it wireItem
	if it.read(&d.scan, raw) != nil {
		return
	}
	st := d.state(it.ID, it.Type)
	st.phase = it.Phase
	if it.Type == "function_call" {
		d.anyCall = true
		d.em.Emit(norm.ToolCallStart{Index: d.indexOf(st), ID: it.CallID, Name: it.Name, ItemID: it.ID})
	}
}

func (d *Decoder) itemDone(raw []byte) {
	var it wireItem
	if it.read(&d.scan, raw) != nil {
		return
	}
	st := d.state(it.ID, it.Type)
	switch it.Type {
	case "message":
	case "reasoning":
		// encrypted_content differs between .added and .done; the .done
		// value is the one to send back.
		if it.EncryptedContent != nil && *it.EncryptedContent != "" {
			td := norm.ThinkingDelta{Index: d.indexOf(st), Encrypted: []byte(*it.EncryptedContent)}
			if !st.itemIDOut {
				td.ItemID, st.itemIDOut = it.ID, true
			}
			d.em.Emit(td)
		}
	case "function_call":
		if st.index < 0 { // never announced by output_item.added
			d.anyCall = true
			d.em.Emit(norm.ToolCallStart{Index: d.indexOf(st), ID: it.CallID, Name: it.Name, ItemID: it.ID})
		}
		if !st.gotArgs && it.Arguments != "" {
			d.em.Emit(norm.ToolCallDelta{Index: st.index, Arguments: it.Arguments})
		}
		d.em.Emit(norm.ToolCallEnd{Index: st.index})
	default:
		d.em.Emit(norm.OtherBlock{Index: d.indexOf(st), Type: it.Type, Raw: append([]byte(nil), raw...)})
	}
	delete(d.items, it.ID)
}

func (d *Decoder) terminal(ev wireEvent) {
	r := ev.Response
	if r == nil {
		d.fail(&norm.Error{Kind: norm.ErrMalformed, Message: fmt.Sprintf("openairesp: %s without a response object", ev.Type)}, "")
		return
	}
	if len(r.Usage) > 0 && string(r.Usage) != "null" {
		d.usageRaw = append(d.usageRaw[:0], r.Usage...)
	}
	u := usage(d.usageRaw)
	switch r.Status {
	case "completed", "":
		reason := norm.StopEnd
		if d.anyCall {
			reason = norm.StopToolUse
		}
		d.em.End(norm.Done{Reason: reason, Raw: "completed", Usage: u, UsageRaw: d.usageRaw})
	case "incomplete":
		why := ""
		if r.IncompleteDetails != nil {
			why = r.IncompleteDetails.Reason
		}
		switch why {
		case "max_output_tokens":
			d.em.End(norm.Done{Reason: norm.StopLength, Raw: "incomplete", Usage: u, UsageRaw: d.usageRaw})
		case "content_filter":
			d.em.End(norm.Done{Reason: norm.StopRefusal, Raw: "incomplete", Usage: u, UsageRaw: d.usageRaw})
		default:
			d.fail(&norm.Error{Kind: norm.ErrServer, Message: fmt.Sprintf("openairesp: response incomplete for reason %q", why)}, "incomplete")
		}
	default: // failed, cancelled
		e := d.pending
		if e == nil && r.Error != nil {
			e = openaichat.Classify(0, r.Error)
		}
		if e == nil {
			e = &norm.Error{Kind: norm.ErrServer, Retryable: true, Message: fmt.Sprintf("openairesp: response %s without an error object", r.Status)}
		}
		d.fail(e, r.Status)
	}
}

func (d *Decoder) fail(e *norm.Error, raw string) {
	d.em.End(norm.StreamError{Err: e, Raw: raw, Usage: usage(d.usageRaw), UsageRaw: d.usageRaw})
}
