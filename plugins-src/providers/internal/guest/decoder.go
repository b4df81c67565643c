package guest

import (
	"fmt"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/wit/provider"
)

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
// thinking signatures and encrypted reasoning arrive as deltas but the
// world carries them on block-end, so they are gathered per block and sent
// when the stream ends.
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
	meta      norm.Meta // vendor metadata framed into the block's signature
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

// delta appends a content delta of kind (text, thinking or tool call) to
// block i, joined to the last event when that is a delta of the same kind
// and block: the deltas one chunk completes for one block arrive at the
// same instant, so they travel as one event with the same text (the Rust
// plugin's push_delta).
func (d *decoder) delta(kind provider.StreamEventCase, i int, text string) {
	if n := len(d.out); n > 0 && d.out[n-1].Case == kind {
		last := &d.out[n-1]
		var cd *provider.ContentDelta
		switch kind {
		case provider.StreamEventTextDelta:
			cd = &last.TextDelta
		case provider.StreamEventThinkingDelta:
			cd = &last.ThinkingDelta
		default:
			cd = &last.ToolCallDelta
		}
		if cd.Index == uint32(i) {
			cd.Text += text
			return
		}
	}
	ev := provider.StreamEvent{Case: kind}
	cd := provider.ContentDelta{Index: uint32(i), Text: text}
	switch kind {
	case provider.StreamEventTextDelta:
		ev.TextDelta = cd
	case provider.StreamEventThinkingDelta:
		ev.ThinkingDelta = cd
	default:
		ev.ToolCallDelta = cd
	}
	d.out = append(d.out, ev)
}

func (d *decoder) emit(events []norm.Event) []provider.StreamEvent {
	d.out = d.out[:0]
	for _, e := range events {
		switch e := e.(type) {
		case norm.Start:
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventStart,
				Start: provider.ResponseStart{ID: e.ResponseID, Model: e.Model}})
		case norm.TextDelta:
			b := d.block(e.Index)
			if e.Signature != nil {
				b.signed, b.signature = true, append(b.signature, e.Signature...)
			}
			if e.ItemID != "" {
				b.meta.Item, b.meta.Phase = e.ItemID, e.Phase
			}
			if e.Text != "" || e.Signature == nil || !b.opened {
				b.opened = true
				d.delta(provider.StreamEventTextDelta, e.Index, e.Text)
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
				b.meta.Format = e.Format
			}
			if e.ItemID != "" {
				b.meta.Item = e.ItemID
			}
			// A delta of only an opaque payload is sent at the block's end,
			// but the block itself has to exist at its index from now on.
			if e.Text != "" || (e.Signature == nil && e.Encrypted == nil && !e.Redacted) || !b.opened {
				b.opened = true
				d.delta(provider.StreamEventThinkingDelta, e.Index, e.Text)
			}
		case norm.ToolCallStart:
			b := d.block(e.Index)
			b.toolCall, b.meta.Item = true, e.ItemID
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventToolCallStart,
				ToolCallStart: provider.ToolCallStart{Index: uint32(e.Index), ID: e.ID, Name: e.Name}})
		case norm.ToolCallDelta:
			d.delta(provider.StreamEventToolCallDelta, e.Index, e.Arguments)
		case norm.ToolCallEnd:
			sig := norm.PackMeta(d.block(e.Index).meta, e.Signature)
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventBlockEnd,
				BlockEnd: provider.BlockEnd{Index: uint32(e.Index), Signature: optString(sig)}})
		case norm.OtherBlock:
			// A server-side block the client never acts on. Smith's
			// messages (core/model) have no content block for a vendor's
			// opaque block, so it travels as an empty text block whose
			// signature frames the block's type and JSON (see
			// [norm.PackMeta]); the runtime returns it unchanged and
			// [Document] turns it back into a [norm.Other].
			b := d.block(e.Index)
			b.opened, b.signed, b.signature = true, true, append(b.signature[:0], e.Raw...)
			b.meta.Other = e.Type
			if b.meta.Other == "" {
				b.meta.Other = "unknown"
			}
			d.delta(provider.StreamEventTextDelta, e.Index, "")
		case norm.Done:
			d.endBlocks()
			d.out = append(d.out, usage(e.Usage))
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventDone,
				Done: provider.ResponseEnd{Reason: stop(e.Reason), RawStop: optText(e.Raw), RawUsage: optString(e.UsageRaw)}})
		case norm.StreamError:
			d.endBlocks()
			d.out = append(d.out, usage(e.Usage))
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventFailure,
				Failure: provider.ResponseFailure{Failure: failure(e.Err), RawStop: optText(e.Raw), RawUsage: optString(e.UsageRaw)}})
		default:
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventUnknown, Unknown: fmt.Sprintf("guest: %T", e)})
		}
	}
	return d.out
}

// endBlocks sends the gathered payloads of the text and thinking blocks.
// A signature carries the block's vendor metadata framed in (see
// [norm.PackMeta]): the encoding of a thinking signature, a Responses item
// id and phase, the type of a server-side block. The host keeps a
// signature opaque and returns it unchanged, so the metadata needs no
// field of its own in the world.
func (d *decoder) endBlocks() {
	for i := range d.blocks {
		b := &d.blocks[i]
		framed := b.meta != norm.Meta{}
		if b.toolCall || !b.signed && !framed && b.encrypted == nil && !b.redacted {
			continue
		}
		var sig []byte
		if b.signed || framed {
			sig = norm.PackMeta(b.meta, b.signature)
		}
		end := provider.BlockEnd{Index: uint32(i), Signature: optString(sig), Redacted: b.redacted}
		if b.encrypted != nil {
			end.Encrypted = &b.encrypted
		}
		d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventBlockEnd, BlockEnd: end})
	}
}

// optString returns b as an optional string: nil is absent.
func optString(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

// optText returns s as an optional string: "" is absent.
func optText(s string) *string {
	if s == "" {
		return nil
	}
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
