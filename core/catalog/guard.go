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
// is a per-provider setting and is admitted separately (see [Admit]); warn,
// when not nil, receives each adjustment note. Guard is safe for concurrent
// use when inner and warn are.
func Guard(inner model.Provider, m Model, p Policy, warn func(string)) model.Provider {
	return &guard{inner: inner, m: m, p: p, warn: warn}
}

type guard struct {
	inner model.Provider
	m     Model
	p     Policy
	warn  func(string)
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
	if g.warn != nil {
		for _, n := range grant.Notes {
			g.warn(n)
		}
	}
	return g.inner.Stream(ctx, req)
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
