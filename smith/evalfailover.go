package main

import (
	"context"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/route"
)

// routed sends every request through route.Open over its targets: a rate
// limit fails over at once, a transient failure before the first event is
// retried with bounded backoff honouring the provider's retry hint, an
// invalid request stops. Failures after the first event reach the caller.
// It is safe for concurrent use when the providers are.
type routed struct {
	targets []route.Target
	// open returns the provider serving a target.
	open   func(route.Target) model.Provider
	policy route.Policy
	// maxOutput is each target's output bound, sent when the request
	// sets none; a target absent or 0 leaves it to the provider.
	maxOutput map[route.Target]int
}

func (r *routed) Stream(ctx context.Context, req *model.Request) model.Stream {
	return route.Stream(ctx, r.targets, func(ctx context.Context, t route.Target) model.Stream {
		q := *req
		q.Model = t.Model
		if q.MaxOutputTokens == 0 {
			q.MaxOutputTokens = r.maxOutput[t]
		}
		return r.open(t).Stream(ctx, &q)
	}, r.policy)
}
