package provider

import (
	"slices"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/model"
)

type blockKind uint8

const (
	textBlock blockKind = iota + 1
	thinkingBlock
	toolBlock
)

// converter maps the codec's stream events to model stream events. It
// keeps the kind of every block so a block-end becomes the right event.
type converter struct {
	provider, model string
	secrets         []string                  // the request's substituted credentials
	redactor        *secret.Set               // Config.Redactor; nil: none
	texts           map[uint32]*secret.Stream // each open block's streamed text, redacted
	kinds           []blockKind
	usage           model.Usage
	terminal        bool
	cost            func(string, model.Usage) model.Amount
	requested       string // the model the request named, the one priced
}

// priced returns the usage with its cost filled in when it is unknown and
// a price is configured.
func (c *converter) priced() model.Usage {
	u := c.usage
	if c.cost != nil && !u.CostNanoUSD.IsKnown() {
		u.CostNanoUSD = c.cost(c.requested, u)
	}
	return u
}

func (c *converter) kind(i uint32, k blockKind) {
	for uint32(len(c.kinds)) <= i {
		c.kinds = append(c.kinds, 0)
	}
	if c.kinds[i] == 0 {
		c.kinds[i] = k
	}
}

// add appends the model events of evs to out.
func (c *converter) add(out []model.StreamEvent, evs []pluginabi.StreamEvent) []model.StreamEvent {
	for i := range evs {
		if c.terminal {
			break
		}
		e := &evs[i]
		switch e.Case {
		case pluginabi.StreamEventStart:
			if e.Start.Model != "" {
				c.model = e.Start.Model
			}
			out = append(out, model.Start{Provider: c.provider, Model: c.model, ResponseID: e.Start.ID})
		case pluginabi.StreamEventTextDelta:
			c.kind(e.TextDelta.Index, textBlock)
			if t, ok := c.text(e.TextDelta.Index, e.TextDelta.Text); ok {
				out = append(out, model.TextDelta{Index: int(e.TextDelta.Index), Text: t})
			}
		case pluginabi.StreamEventThinkingDelta:
			c.kind(e.ThinkingDelta.Index, thinkingBlock)
			if t, ok := c.text(e.ThinkingDelta.Index, e.ThinkingDelta.Text); ok {
				out = append(out, model.ThinkingDelta{Index: int(e.ThinkingDelta.Index), Text: t})
			}
		case pluginabi.StreamEventToolCallStart:
			c.kind(e.ToolCallStart.Index, toolBlock)
			out = append(out, model.ToolCallStart{Index: int(e.ToolCallStart.Index), ID: e.ToolCallStart.ID, Name: e.ToolCallStart.Name})
		case pluginabi.StreamEventToolCallDelta:
			if t, ok := c.text(e.ToolCallDelta.Index, e.ToolCallDelta.Text); ok {
				out = append(out, model.ToolCallDelta{Index: int(e.ToolCallDelta.Index), Arguments: t})
			}
		case pluginabi.StreamEventBlockEnd:
			out = c.blockEnd(out, e.BlockEnd)
		case pluginabi.StreamEventUsage:
			c.usage = usage(e.Usage)
		case pluginabi.StreamEventDone:
			c.terminal = true
			out = c.flushAll(out)
			rawStop, rawUsage := c.raw(e.Done.RawStop), c.raw(e.Done.RawUsage)
			if r, ok := stopReasons[e.Done.Reason]; ok {
				out = append(out, model.Done{Reason: r, Usage: c.priced(), RawStop: rawStop, RawUsage: rawUsage})
				continue
			}
			out = append(out, model.StreamError{Err: model.NewError(model.ErrMalformed,
				"provider: the codec for %q reported a stop reason this host does not know; update Smith", c.provider),
				Usage: c.priced(), RawStop: rawStop, RawUsage: rawUsage})
		case pluginabi.StreamEventFailure:
			c.terminal = true
			out = c.flushAll(out)
			out = append(out, model.StreamError{Err: c.modelError(e.Failure.Failure, 0), Usage: c.priced(),
				RawStop: c.raw(e.Failure.RawStop), RawUsage: c.raw(e.Failure.RawUsage)})
		case pluginabi.StreamEventUnknown:
			// An event kind newer than this host; the world says to
			// ignore it.
		}
	}
	return out
}

func (c *converter) blockEnd(out []model.StreamEvent, b pluginabi.BlockEnd) []model.StreamEvent {
	var sig []byte
	if b.Signature != nil {
		sig = []byte(*b.Signature)
	}
	out = c.flush(out, b.Index)
	k := c.kindOf(b.Index)
	switch k {
	case toolBlock:
		return append(out, model.ToolCallEnd{Index: int(b.Index), Signature: sig})
	case thinkingBlock:
		var enc []byte
		if b.Encrypted != nil {
			enc = *b.Encrypted
			if enc == nil {
				enc = []byte{}
			}
		}
		if sig == nil && enc == nil && !b.Redacted {
			return out
		}
		return append(out, model.ThinkingDelta{Index: int(b.Index), Signature: sig, Encrypted: enc, Redacted: b.Redacted})
	case textBlock:
		if sig == nil {
			return out
		}
		return append(out, model.TextDelta{Index: int(b.Index), Signature: sig})
	}
	return out
}

func (c *converter) kindOf(i uint32) blockKind {
	if int(i) < len(c.kinds) {
		return c.kinds[i]
	}
	return 0
}

// text returns a block's streamed text redacted, as far as it cannot yet
// begin a registered secret (the rest comes with the next delta or at the
// block's end), and whether there is any to pass on.
func (c *converter) text(i uint32, t string) (string, bool) {
	if c.redactor == nil || c.redactor.Len() == 0 && c.texts[i] == nil {
		return t, true
	}
	st := c.texts[i]
	if st == nil {
		if c.texts == nil {
			c.texts = map[uint32]*secret.Stream{}
		}
		st = c.redactor.Stream()
		if c.kindOf(i) == toolBlock {
			st = c.redactor.JSONStream() // arguments are JSON text: keep their escapes whole
		}
		c.texts[i] = st
	}
	out := st.Next([]byte(t))
	return string(out), len(out) > 0
}

// flush appends the text block i kept back, as its kind's delta.
func (c *converter) flush(out []model.StreamEvent, i uint32) []model.StreamEvent {
	st := c.texts[i]
	if st == nil {
		return out
	}
	delete(c.texts, i)
	t := string(st.Flush())
	if t == "" {
		return out
	}
	switch c.kindOf(i) {
	case textBlock:
		return append(out, model.TextDelta{Index: int(i), Text: t})
	case thinkingBlock:
		return append(out, model.ThinkingDelta{Index: int(i), Text: t})
	default:
		return append(out, model.ToolCallDelta{Index: int(i), Arguments: t})
	}
}

// flushAll flushes every block still open, in index order.
func (c *converter) flushAll(out []model.StreamEvent) []model.StreamEvent {
	open := make([]uint32, 0, len(c.texts))
	for i := range c.texts {
		open = append(open, i)
	}
	slices.Sort(open)
	for _, i := range open {
		out = c.flush(out, i)
	}
	return out
}

var stopReasons = map[pluginabi.StopReason]model.StopReason{
	pluginabi.StopReasonEnd: model.StopEnd, pluginabi.StopReasonToolUse: model.StopToolUse,
	pluginabi.StopReasonLength: model.StopLength, pluginabi.StopReasonRefusal: model.StopRefusal,
}

var failureKinds = map[pluginabi.FailureKind]model.ErrorKind{
	pluginabi.FailureKindAuth: model.ErrAuth, pluginabi.FailureKindInvalidRequest: model.ErrInvalidRequest,
	pluginabi.FailureKindContextOverflow: model.ErrContextOverflow, pluginabi.FailureKindRateLimit: model.ErrRateLimit,
	pluginabi.FailureKindQuota: model.ErrQuota, pluginabi.FailureKindOverloaded: model.ErrOverloaded,
	pluginabi.FailureKindServer: model.ErrServer, pluginabi.FailureKindNotFound: model.ErrNotFound,
	pluginabi.FailureKindTransport: model.ErrTransport, pluginabi.FailureKindTruncated: model.ErrTruncated,
	pluginabi.FailureKindAborted: model.ErrAborted, pluginabi.FailureKindMalformed: model.ErrMalformed,
}

// modelError turns a codec failure into a model error. status is the
// response's status, used when the codec did not report one; a kind this
// host does not know is malformed. Every text the codec returns is
// scrubbed of the request's secrets.
func (c *converter) modelError(f pluginabi.Failure, status int) *model.Error {
	k, ok := failureKinds[f.Kind]
	if !ok {
		k = model.ErrMalformed
	}
	e := &model.Error{Kind: k, Message: c.scrub(f.Message), Retryable: f.Retryable, HTTPStatus: status,
		ProviderType: c.raw(f.ProviderType), Code: c.raw(f.VendorCode), RequestID: c.raw(f.RequestID)}
	if f.RetryAfterMs != nil {
		e.RetryAfterMillis = int64(min(*f.RetryAfterMs, 1<<53))
	}
	if f.HTTPStatus != nil {
		e.HTTPStatus = int(*f.HTTPStatus)
	}
	if e.Message == "" {
		e.Message = "the provider gave no message"
	}
	return e
}

// raw returns an optional vendor text scrubbed of the request's secrets,
// "" when absent.
func (c *converter) raw(s *string) string {
	if s == nil {
		return ""
	}
	return c.scrub(*s)
}

func usage(u pluginabi.Usage) model.Usage {
	a := func(p *uint64) model.Amount {
		if p == nil {
			return model.Unknown()
		}
		return model.Known(int64(min(*p, 1<<62)))
	}
	return model.Usage{Input: a(u.Input), Output: a(u.Output), CacheRead: a(u.CacheRead), CacheWrite: a(u.CacheWrite),
		Reasoning: a(u.Reasoning)}
}
