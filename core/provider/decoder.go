package provider

import (
	"context"
	"fmt"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/wasmhost"
)

// Decoder runs a codec plugin's decoder over the chunks of one response
// body and yields model stream events, as the bridge does for a live
// exchange; replay feeds recorded chunks through it. A Decoder holds one
// plugin instance until Close; it is used by one goroutine at a time.
type Decoder struct {
	in   *wasmhost.Instance
	dec  *pluginabi.Decoder
	conv *converter
}

// DecodeOptions describe the response a [Decoder] decodes.
type DecodeOptions struct {
	// Provider is the provider's name as the plugin declared it.
	Provider string
	// Model is the requested model, reported by Start unless the response
	// names its own.
	Model string
	// Status and ContentType are the response's status code (default 200)
	// and content type (default text/event-stream).
	Status      int
	ContentType string
}

// NewDecoder opens a decoder of plugin (served by inst) for one response.
func NewDecoder(ctx context.Context, inst Instances, plugin string, o DecodeOptions) (*Decoder, error) {
	in, err := inst.Acquire(ctx, plugin)
	if err != nil {
		return nil, fmt.Errorf("provider: start codec plugin %q for %q: %w", plugin, o.Provider, err)
	}
	d, err := newDecoder(ctx, in, plugin, o)
	if err != nil {
		in.Release()
		return nil, err
	}
	d.in = in
	return d, nil
}

func newDecoder(ctx context.Context, in *wasmhost.Instance, plugin string, o DecodeOptions) (*Decoder, error) {
	if o.Status == 0 {
		o.Status = 200
	}
	if o.ContentType == "" {
		o.ContentType = "text/event-stream"
	}
	if o.Status < 100 || o.Status > 599 {
		return nil, fmt.Errorf("provider: status %d for %q is not an HTTP status (100-599)", o.Status, o.Provider)
	}
	dec, err := pluginabi.Bind(in).NewDecoder(ctx, pluginabi.DecodeOptions{Provider: o.Provider, Status: uint16(o.Status), ContentType: o.ContentType})
	if err != nil {
		return nil, fmt.Errorf("provider: codec plugin %q could not open a decoder for %q: %w", plugin, o.Provider, err)
	}
	return &Decoder{dec: dec, conv: &converter{provider: o.Provider, model: o.Model}}, nil
}

// Decode decodes one chunk, which may end anywhere, and appends the events
// it completed to out.
func (d *Decoder) Decode(ctx context.Context, chunk []byte, out []model.StreamEvent) ([]model.StreamEvent, error) {
	evs, err := d.dec.DecodeChunk(ctx, chunk)
	if err != nil {
		return out, fmt.Errorf("provider: the codec for %q could not decode the response: %w", d.conv.provider, err)
	}
	return d.conv.add(out, evs), nil
}

// Finish ends the body and appends the remaining events, the last being
// the terminal Done or StreamError.
func (d *Decoder) Finish(ctx context.Context, out []model.StreamEvent) ([]model.StreamEvent, error) {
	evs, err := d.dec.Finish(ctx)
	if err != nil {
		return out, fmt.Errorf("provider: the codec for %q could not finish the response: %w", d.conv.provider, err)
	}
	out = d.conv.add(out, evs)
	if !d.conv.terminal {
		return out, fmt.Errorf("provider: the codec for %q ended the stream without done or failure", d.conv.provider)
	}
	return out, nil
}

// Terminal reports whether the terminal event was produced.
func (d *Decoder) Terminal() bool { return d.conv.terminal }

// Close drops the plugin's decoder and releases the instance. It is
// idempotent.
func (d *Decoder) Close() {
	if d.dec != nil {
		_ = d.dec.Drop(context.Background())
		d.dec = nil
	}
	if d.in != nil {
		d.in.Release()
		d.in = nil
	}
}
