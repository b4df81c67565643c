package catalog

import (
	"context"

	"github.com/smith-agent/smith/core/model"
)

// Guard wraps a provider so every request is admitted against m before it
// is dispatched: a request the model cannot serve under the policy never
// reaches inner — its stream fails at once with an invalid_request error
// carrying the [CapabilityError] message — and an adjusted request (images
// replaced, output bound lowered) is what inner receives. The thinking level
// is a per-provider setting and is admitted separately (see [Admit]). Each
// adjustment is reported in the stream, before the provider's events, as a
// [model.Note]. Guard is safe for concurrent use when inner is.
func Guard(inner model.Provider, m Model, p Policy) model.Provider {
	return &guard{inner: inner, m: m, p: p}
}

type guard struct {
	inner model.Provider
	m     Model
	p     Policy
}

func (g *guard) Stream(ctx context.Context, req *model.Request) model.Stream {
	grant, err := Admit(g.m, NeedsOf(req, ""), g.p)
	if err != nil {
		e := model.NewError(model.ErrInvalidRequest, "%s", err.Error())
		e.ProviderType = "capability"
		return &failed{ev: model.StreamError{Err: e}}
	}
	if grant.DropImages {
		req = StripImages(req)
	}
	if grant.MaxOutput != req.MaxOutputTokens {
		r := *req
		r.MaxOutputTokens = grant.MaxOutput
		req = &r
	}
	s := g.inner.Stream(ctx, req)
	if len(grant.Notes) == 0 {
		return s
	}
	notes := make([]model.StreamEvent, len(grant.Notes))
	for i, n := range grant.Notes {
		notes[i] = model.Note{Text: n}
	}
	return &noted{notes: notes, Stream: s}
}

// noted yields its notes, then the stream.
type noted struct {
	notes []model.StreamEvent
	model.Stream
}

func (n *noted) Next() (model.StreamEvent, bool) {
	if len(n.notes) > 0 {
		ev := n.notes[0]
		n.notes = n.notes[1:]
		return ev, true
	}
	return n.Stream.Next()
}

// failed is a stream that fails before dispatch.
type failed struct {
	ev   model.StreamEvent
	done bool
}

func (f *failed) Next() (model.StreamEvent, bool) {
	if f.done {
		return nil, false
	}
	f.done = true
	return f.ev, true
}

func (f *failed) Close() error { return nil }
