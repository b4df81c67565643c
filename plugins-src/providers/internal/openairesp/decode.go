package openairesp

import (
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/plugins-src/providers/internal/jsonscan"
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

type wireItem struct {
	Type             string  `json:"type"`
	ID               string  `json:"id"`
	CallID           string  `json:"call_id"`
	Name             string  `json:"name"`
	Arguments        string  `json:"arguments"`
	EncryptedContent *string `json:"encrypted_content"`
	Phase            string  `json:"phase"`
}

type wireEvent struct {
	Type         string          `json:"type"`
	ItemID       string          `json:"item_id"`
	SummaryIndex int             `json:"summary_index"`
	Delta        string          `json:"delta"`
	Item         json.RawMessage `json:"item"`
	Response     *struct {
		ID                string          `json:"id"`
		Model             string          `json:"model"`
		Status            string          `json:"status"`
		Usage             json.RawMessage `json:"usage"`
		IncompleteDetails *struct {
			Reason string `json:"reason"`
		} `json:"incomplete_details"`
		Error *openaichat.WireError `json:"error"`
	} `json:"response"`
	// The error event: nested (recorded) or flat (documented).
	Error   *openaichat.WireError `json:"error"`
	Code    json.RawMessage       `json:"code"`
	Message string                `json:"message"`
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
	if err := d.read(it.Data, &ev); err != nil {
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

// read parses an event's payload into ev. Delta events, nearly every
// event of a stream, are read by hand; one with a non-null response or
// error object (a few per stream) goes through encoding/json. Either way a
// syntax error anywhere, or a field of the wrong type, is an error.
func (d *Decoder) read(data []byte, ev *wireEvent) error {
	s := &d.scan
	var typ, itemID, delta, message jsonscan.String
	var summary int64
	var item, code []byte
	slow := false
	s.Reset(data)
	s.Object(func(key []byte) {
		switch string(key) {
		case "type":
			typ = s.Str()
		case "item_id":
			itemID = s.Str()
		case "summary_index":
			summary, _ = s.Int()
		case "delta":
			delta = s.Str()
		case "item":
			item = s.Raw()
		case "code":
			code = s.Raw()
		case "message":
			message = s.Str()
		case "response", "error":
			if !s.Null() {
				slow = true
			}
		}
	})
	if err := s.Finish(); err != nil {
		return err
	}
	if slow {
		return json.Unmarshal(data, ev)
	}
	*ev = wireEvent{Type: typ.String(), ItemID: itemID.String(), SummaryIndex: int(summary), Delta: delta.String(),
		Item: item, Code: code, Message: message.String()}
	return nil
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

func (d *Decoder) itemAdded(raw json.RawMessage) {
	var it wireItem
	if json.Unmarshal(raw, &it) != nil {
		return
	}
	st := d.state(it.ID, it.Type)
	st.phase = it.Phase
	if it.Type == "function_call" {
		d.anyCall = true
		d.em.Emit(norm.ToolCallStart{Index: d.indexOf(st), ID: it.CallID, Name: it.Name, ItemID: it.ID})
	}
}

func (d *Decoder) itemDone(raw json.RawMessage) {
	var it wireItem
	if json.Unmarshal(raw, &it) != nil {
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
