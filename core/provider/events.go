package provider

import (
	"encoding/json"
	"strings"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
)

// extensionPrefix starts an unknown stream event carrying what the world's
// events cannot say (see the providers plugin's guest package); other
// unknown events are ignored, as the world requires.
const extensionPrefix = "smith.providers/v1 "

type extension struct {
	Kind         string `json:"kind"`
	Index        uint32 `json:"index"`
	Model        string `json:"model"`
	Encrypted    []byte `json:"encrypted"`
	Redacted     bool   `json:"redacted"`
	ErrorKind    string `json:"error_kind"`
	Retryable    bool   `json:"retryable"`
	HTTPStatus   int    `json:"http_status"`
	ProviderType string `json:"provider_type"`
	RequestID    string `json:"request_id"`
}

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
	secrets         []string
	kinds           []blockKind
	usage           model.Usage
	thinking        map[uint32]extension
	failure         *extension
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
		case pluginabi.StreamEventUnknown:
			c.extension(e.Unknown)
		case pluginabi.StreamEventStart:
			out = append(out, model.Start{Provider: c.provider, Model: c.model, ResponseID: e.Start})
		case pluginabi.StreamEventTextDelta:
			c.kind(e.TextDelta.Index, textBlock)
			out = append(out, model.TextDelta{Index: int(e.TextDelta.Index), Text: e.TextDelta.Text})
		case pluginabi.StreamEventThinkingDelta:
			c.kind(e.ThinkingDelta.Index, thinkingBlock)
			out = append(out, model.ThinkingDelta{Index: int(e.ThinkingDelta.Index), Text: e.ThinkingDelta.Text})
		case pluginabi.StreamEventToolCallStart:
			c.kind(e.ToolCallStart.Index, toolBlock)
			out = append(out, model.ToolCallStart{Index: int(e.ToolCallStart.Index), ID: e.ToolCallStart.ID, Name: e.ToolCallStart.Name})
		case pluginabi.StreamEventToolCallDelta:
			out = append(out, model.ToolCallDelta{Index: int(e.ToolCallDelta.Index), Arguments: e.ToolCallDelta.Text})
		case pluginabi.StreamEventBlockEnd:
			out = c.blockEnd(out, e.BlockEnd)
		case pluginabi.StreamEventUsage:
			c.usage = usage(e.Usage)
		case pluginabi.StreamEventDone:
			c.terminal = true
			if r, ok := stopReasons[e.Done]; ok {
				out = append(out, model.Done{Reason: r, Usage: c.priced()})
				continue
			}
			out = append(out, model.StreamError{Err: model.NewError(model.ErrMalformed,
				"provider: the codec for %q reported a stop reason this host does not know; update Smith", c.provider), Usage: c.priced()})
		case pluginabi.StreamEventFailure:
			c.terminal = true
			out = append(out, model.StreamError{Err: c.modelError(e.Failure, 0), Usage: c.priced()})
		}
	}
	return out
}

func (c *converter) blockEnd(out []model.StreamEvent, b pluginabi.BlockEnd) []model.StreamEvent {
	var sig []byte
	if b.Signature != nil {
		sig = []byte(*b.Signature)
	}
	var k blockKind
	if int(b.Index) < len(c.kinds) {
		k = c.kinds[b.Index]
	}
	switch k {
	case toolBlock:
		return append(out, model.ToolCallEnd{Index: int(b.Index), Signature: sig})
	case thinkingBlock:
		x := c.thinking[b.Index]
		delete(c.thinking, b.Index)
		if sig == nil && x.Encrypted == nil && !x.Redacted {
			return out
		}
		return append(out, model.ThinkingDelta{Index: int(b.Index), Signature: sig, Encrypted: x.Encrypted, Redacted: x.Redacted})
	case textBlock:
		if sig == nil {
			return out
		}
		return append(out, model.TextDelta{Index: int(b.Index), Signature: sig})
	}
	return out
}

func (c *converter) extension(payload string) {
	rest, ok := strings.CutPrefix(payload, extensionPrefix)
	if !ok {
		return
	}
	var x extension
	if json.Unmarshal([]byte(rest), &x) != nil {
		return
	}
	switch x.Kind {
	case "start":
		if x.Model != "" {
			c.model = x.Model
		}
	case "thinking":
		if c.thinking == nil {
			c.thinking = map[uint32]extension{}
		}
		c.thinking[x.Index] = x
	case "error":
		c.failure = &x
	}
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
	pluginabi.FailureKindAborted: model.ErrAborted,
}

// modelError turns a codec failure into a model error; details the codec
// sent as an extension (exact kind, vendor type, request id) refine it.
func (c *converter) modelError(f pluginabi.Failure, status int) *model.Error {
	k, ok := failureKinds[f.Kind]
	if !ok {
		k = model.ErrMalformed
	}
	e := &model.Error{Kind: k, Message: scrub(f.Message, c.secrets), Retryable: k.Retryable(), HTTPStatus: status}
	if f.RetryAfterMs != nil {
		e.RetryAfterMillis = int64(min(*f.RetryAfterMs, 1<<53))
	}
	if x := c.failure; x != nil {
		if xk := model.ErrorKind(x.ErrorKind); xk.Valid() {
			e.Kind = xk
		}
		e.Retryable = x.Retryable
		e.ProviderType, e.RequestID = x.ProviderType, x.RequestID
		if x.HTTPStatus != 0 {
			e.HTTPStatus = x.HTTPStatus
		}
		c.failure = nil
	}
	if e.Message == "" {
		e.Message = "the provider gave no message"
	}
	return e
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
