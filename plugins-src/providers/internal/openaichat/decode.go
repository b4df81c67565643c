package openaichat

import (
	"encoding/json"
	"fmt"
	"sort"

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

type wireChunk struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Choices []wireChoice    `json:"choices"`
	Usage   json.RawMessage `json:"usage"`
	XGroq   *struct {
		Usage json.RawMessage `json:"usage"`
	} `json:"x_groq"`
	Error json.RawMessage `json:"error"`
}

type wireChoice struct {
	Delta        wireDelta       `json:"delta"`
	FinishReason *string         `json:"finish_reason"`
	Usage        json.RawMessage `json:"usage"`
}

type wireDelta struct {
	Content          json.RawMessage `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ReasoningText    string          `json:"reasoning_text"`
	ReasoningDetails []struct {
		Type      string `json:"type"`
		Text      string `json:"text"`
		Summary   string `json:"summary"`
		Signature string `json:"signature"`
		Data      string `json:"data"`
		Format    string `json:"format"`
	} `json:"reasoning_details"`
	ToolCalls []struct {
		Index    *int   `json:"index"`
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	Refusal string `json:"refusal"`
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
	var c wireChunk
	if err := json.Unmarshal(it.Data, &c); err != nil {
		d.fail(&norm.Error{Kind: norm.ErrMalformed, Message: fmt.Sprintf("openaichat: chunk is not JSON (%v): %.80q", err, it.Data)})
		return
	}
	if d.id == "" && c.ID != "" {
		d.id = c.ID
	}
	if d.model == "" && c.Model != "" {
		d.model = c.Model
	}
	if !d.started && (d.id != "" || len(c.Choices) > 0) {
		d.started = true
		d.em.Emit(norm.Start{Provider: d.provider, Model: d.model, ResponseID: d.id})
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		d.setUsage(c.Usage)
		d.fail(streamError(c.Error))
		return
	}
	for _, ch := range c.Choices {
		d.delta(&ch.Delta)
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			d.stopRaw = *ch.FinishReason
			d.endCalls()
		}
		d.setUsage(ch.Usage)
	}
	if c.XGroq != nil {
		d.setUsage(c.XGroq.Usage)
	}
	d.setUsage(c.Usage)
	if d.stopRaw == "error" {
		d.fail(&norm.Error{Kind: norm.ErrServer, Retryable: true,
			Message: "openaichat: the server ended the stream with finish_reason \"error\" and no error object"})
	}
}

func (d *Decoder) setUsage(raw json.RawMessage) {
	if len(raw) > 0 && string(raw) != "null" {
		d.usageRaw = append(d.usageRaw[:0], raw...)
	}
}

func (d *Decoder) delta(w *wireDelta) {
	if r := firstNonEmpty(w.ReasoningContent, w.Reasoning, w.ReasoningText); r != "" {
		d.thinking(norm.ThinkingDelta{Text: r})
	}
	for _, rd := range w.ReasoningDetails {
		t := norm.ThinkingDelta{Format: rd.Format}
		if w.ReasoningContent == "" && w.Reasoning == "" && w.ReasoningText == "" {
			t.Text = firstNonEmpty(rd.Text, rd.Summary)
		}
		if rd.Signature != "" {
			t.Signature = []byte(rd.Signature)
		}
		if rd.Type == "reasoning.encrypted" && rd.Data != "" {
			t.Encrypted = []byte(rd.Data)
		}
		if t.Text != "" || t.Signature != nil || t.Encrypted != nil {
			d.thinking(t)
		}
	}
	d.content(w.Content)
	if w.Refusal != "" {
		d.text(w.Refusal)
	}
	for _, tc := range w.ToolCalls {
		key := ""
		switch {
		case tc.Index != nil:
			key = fmt.Sprint("i", *tc.Index)
		case tc.ID != "":
			key = "id:" + tc.ID
		case d.lastCall != "":
			key = d.lastCall
		default:
			d.anonCalls++
			key = fmt.Sprint("anon", d.anonCalls)
		}
		idx, ok := d.calls[key]
		if !ok {
			idx = d.em.Open()
			d.calls[key] = idx
			d.open[idx] = true
			d.em.Emit(norm.ToolCallStart{Index: idx, ID: tc.ID, Name: tc.Function.Name})
		}
		d.lastCall = key
		d.cur = -1
		if tc.Function.Arguments != "" && d.open[idx] {
			d.em.Emit(norm.ToolCallDelta{Index: idx, Arguments: tc.Function.Arguments})
		}
	}
}

// content handles delta.content: a string, null, or (Mistral Magistral) an
// array of typed parts.
func (d *Decoder) content(raw json.RawMessage) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			d.text(s)
		}
		return
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Thinking []struct {
			Text string `json:"text"`
		} `json:"thinking"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return
	}
	for _, p := range parts {
		switch p.Type {
		case "text":
			if p.Text != "" {
				d.text(p.Text)
			}
		case "thinking":
			var s string
			for _, t := range p.Thinking {
				s += t.Text
			}
			if s != "" {
				d.thinking(norm.ThinkingDelta{Text: s})
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

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

var stopReasons = map[string]norm.StopReason{
	"stop":           norm.StopEnd,
	"end_turn":       norm.StopEnd,
	"tool_calls":     norm.StopToolUse,
	"function_call":  norm.StopToolUse,
	"length":         norm.StopLength,
	"content_filter": norm.StopRefusal,
}
