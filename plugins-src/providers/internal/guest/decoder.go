package guest

import (
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/wit/provider"
)

// ExtensionPrefix starts the payload of an unknown stream event that
// carries an [Extension].
const ExtensionPrefix = "smith.providers/v1 "

// Extension is what the world's stream events cannot say, sent as an
// unknown event just before the event it qualifies:
//
//   - "start": the responding model and the provider, before start;
//   - "thinking": encrypted or redacted reasoning of the thinking block at
//     Index (Encrypted byte-exact), before the block's block-end;
//   - "error": the failure's exact kind and vendor details, before failure;
//   - "stop": the vendor's own stop value, before done or failure.
type Extension struct {
	Kind         string `json:"kind"`
	Index        uint32 `json:"index,omitempty"`
	Model        string `json:"model,omitempty"`
	Provider     string `json:"provider,omitempty"`
	Encrypted    []byte `json:"encrypted,omitempty"`
	Redacted     bool   `json:"redacted,omitempty"`
	ErrorKind    string `json:"error_kind,omitempty"`
	Retryable    bool   `json:"retryable,omitempty"`
	HTTPStatus   int    `json:"http_status,omitempty"`
	ProviderType string `json:"provider_type,omitempty"`
	Code         string `json:"code,omitempty"`
	RequestID    string `json:"request_id,omitempty"`
	Raw          string `json:"raw,omitempty"`
}

// NewDecoder opens a decoder for one response of a declared provider. A
// decoder for an unknown provider fails its first call.
func (Plugin) NewDecoder(o provider.DecodeOptions) provider.Decoder {
	e, err := lookup(o.Provider)
	if err != nil {
		return &decoder{fault: err}
	}
	d, err := codec.NewDecoder(codec.API(e.API), o.Provider)
	if err != nil {
		return &decoder{fault: provider.CodecFault{Case: provider.CodecFaultUnknown, Unknown: err.Error()}}
	}
	return &decoder{d: d}
}

// decoder maps one codec decoder's events to stream events. Text and
// thinking signatures arrive as deltas but the world carries them on
// block-end, so they are gathered per block and sent when the stream ends.
type decoder struct {
	d        norm.Decoder
	fault    error
	out      []provider.StreamEvent
	blocks   []blockState
	finished bool
}

type blockState struct {
	signed    bool
	signature []byte
	thinking  bool
	encrypted []byte
	redacted  bool
	toolCall  bool
	opened    bool
	format    string
}

// DecodeChunk decodes one chunk of the body.
func (d *decoder) DecodeChunk(chunk []byte) ([]provider.StreamEvent, error) {
	if d.fault != nil {
		return nil, d.fault
	}
	return d.emit(d.d.Feed(chunk)), nil
}

// Finish ends the body; the result ends with done or failure.
func (d *decoder) Finish() ([]provider.StreamEvent, error) {
	if d.fault != nil {
		return nil, d.fault
	}
	if d.finished {
		return nil, provider.CodecFault{Case: provider.CodecFaultUnknown, Unknown: "guest: finish called twice on one decoder"}
	}
	d.finished = true
	return d.emit(d.d.Close()), nil
}

func (d *decoder) block(i int) *blockState {
	for len(d.blocks) <= i {
		d.blocks = append(d.blocks, blockState{})
	}
	return &d.blocks[i]
}

func (d *decoder) ext(x Extension) {
	b, _ := json.Marshal(x)
	d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventUnknown, Unknown: ExtensionPrefix + string(b)})
}

func (d *decoder) emit(events []norm.Event) []provider.StreamEvent {
	d.out = d.out[:0]
	for _, e := range events {
		switch e := e.(type) {
		case norm.Start:
			d.ext(Extension{Kind: "start", Model: e.Model, Provider: e.Provider})
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventStart, Start: e.ResponseID})
		case norm.TextDelta:
			b := d.block(e.Index)
			if e.Signature != nil {
				b.signed, b.signature = true, append(b.signature, e.Signature...)
			}
			if e.Text != "" || e.Signature == nil || !b.opened {
				b.opened = true
				d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventTextDelta,
					TextDelta: provider.ContentDelta{Index: uint32(e.Index), Text: e.Text}})
			}
		case norm.ThinkingDelta:
			b := d.block(e.Index)
			b.thinking = true
			if e.Signature != nil {
				b.signed, b.signature = true, append(b.signature, e.Signature...)
			}
			b.encrypted = append(b.encrypted, e.Encrypted...)
			b.redacted = b.redacted || e.Redacted
			if e.Format != "" {
				b.format = e.Format
			}
			// A delta of only an opaque payload is sent at the block's end,
			// but the block itself has to exist at its index from now on.
			if e.Text != "" || (e.Signature == nil && e.Encrypted == nil && !e.Redacted) || !b.opened {
				b.opened = true
				d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventThinkingDelta,
					ThinkingDelta: provider.ContentDelta{Index: uint32(e.Index), Text: e.Text}})
			}
		case norm.ToolCallStart:
			d.block(e.Index).toolCall = true
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventToolCallStart,
				ToolCallStart: provider.ToolCallStart{Index: uint32(e.Index), ID: e.ID, Name: e.Name}})
		case norm.ToolCallDelta:
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventToolCallDelta,
				ToolCallDelta: provider.ContentDelta{Index: uint32(e.Index), Text: e.Arguments}})
		case norm.ToolCallEnd:
			d.block(e.Index)
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventBlockEnd,
				BlockEnd: provider.BlockEnd{Index: uint32(e.Index), Signature: optString(e.Signature)}})
		case norm.OtherBlock:
			// A server-side block the client never acts on: it keeps its
			// index as an empty text block so later indexes stay aligned.
			d.block(e.Index).opened = true
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventTextDelta,
				TextDelta: provider.ContentDelta{Index: uint32(e.Index)}})
		case norm.Done:
			d.endBlocks()
			d.out = append(d.out, usage(e.Usage))
			d.ext(Extension{Kind: "stop", Raw: e.Raw})
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventDone, Done: stop(e.Reason)})
		case norm.StreamError:
			d.endBlocks()
			d.out = append(d.out, usage(e.Usage))
			d.ext(Extension{Kind: "stop", Raw: e.Raw})
			d.ext(Extension{Kind: "error", ErrorKind: string(e.Err.Kind), Retryable: e.Err.Retryable, HTTPStatus: e.Err.HTTPStatus,
				ProviderType: e.Err.ProviderType, Code: e.Err.Code, RequestID: e.Err.RequestID})
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventFailure, Failure: failure(e.Err)})
		default:
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventUnknown, Unknown: fmt.Sprintf("guest: %T", e)})
		}
	}
	return d.out
}

// endBlocks sends the gathered payloads of the text and thinking blocks.
func (d *decoder) endBlocks() {
	for i := range d.blocks {
		b := &d.blocks[i]
		if b.toolCall {
			continue
		}
		if b.encrypted != nil || b.redacted {
			d.ext(Extension{Kind: "thinking", Index: uint32(i), Encrypted: b.encrypted, Redacted: b.redacted})
		}
		if b.signed || b.encrypted != nil || b.redacted {
			sig := b.signature
			if b.thinking && b.signed {
				sig = PackSignature(b.format, sig)
			}
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventBlockEnd,
				BlockEnd: provider.BlockEnd{Index: uint32(i), Signature: optString(sig)}})
		}
	}
}

func optString(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

func stop(r norm.StopReason) provider.StopReason {
	switch r {
	case norm.StopEnd:
		return provider.StopReasonEnd
	case norm.StopToolUse:
		return provider.StopReasonToolUse
	case norm.StopLength:
		return provider.StopReasonLength
	case norm.StopRefusal:
		return provider.StopReasonRefusal
	}
	return provider.StopReasonUnknown
}

func usage(u norm.Usage) provider.StreamEvent {
	p := func(a norm.Amount) *uint64 {
		v, ok := a.Value()
		if !ok || v < 0 {
			return nil
		}
		n := uint64(v)
		return &n
	}
	return provider.StreamEvent{Case: provider.StreamEventUsage, Usage: provider.Usage{Input: p(u.Input), Output: p(u.Output),
		CacheRead: p(u.CacheRead), CacheWrite: p(u.CacheWrite), Reasoning: p(u.Reasoning)}}
}
