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
			// A server-side block the client never acts on. Smith's
			// messages (core/model) have no content block for a vendor's
			// opaque block, so the world has no event for it either: it
			// keeps its index as an empty text block so later indexes stay
			// aligned, and its JSON is dropped.
			d.block(e.Index).opened = true
			d.out = append(d.out, provider.StreamEvent{Case: provider.StreamEventTextDelta,
				TextDelta: provider.ContentDelta{Index: uint32(e.Index)}})
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
// A thinking signature carries the vendor's name for its encoding packed
// in (see [PackSignature]): the host keeps a signature opaque and returns
// it unchanged, so the format needs no field of its own in the world.
func (d *decoder) endBlocks() {
	for i := range d.blocks {
		b := &d.blocks[i]
		if b.toolCall || !b.signed && b.encrypted == nil && !b.redacted {
			continue
		}
		var sig []byte
		if b.signed {
			sig = b.signature
			if b.thinking {
				sig = PackSignature(b.format, sig)
			}
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
