package mockprovider

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/smith-agent/smith/core/model"
)

// Provider is the mock provider. It answers the n-th request with the n-th
// scripted response. It is safe for concurrent use.
type Provider struct {
	script *Script
	mu     sync.Mutex
	next   int
	reqs   []model.Request
}

// New returns a mock provider playing script.
func New(script *Script) *Provider { return &Provider{script: script} }

// Load reads and parses a script file.
func Load(path string) (*Provider, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mockprovider: read script: %w", err)
	}
	s, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return New(s), nil
}

// Requests returns a copy of every request received so far.
func (p *Provider) Requests() []model.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.reqs)
}

// Stream returns the next scripted response as a stream.
func (p *Provider) Stream(ctx context.Context, req *model.Request) model.Stream {
	p.mu.Lock()
	n := p.next
	p.next++
	p.reqs = append(p.reqs, *req)
	p.mu.Unlock()
	if n >= len(p.script.Responses) {
		return &stream{ctx: ctx, hang: -1, events: []model.StreamEvent{
			model.Start{Provider: "mock", Model: p.script.Model},
			model.StreamError{Err: model.NewError(model.ErrInvalidRequest,
				"mock script exhausted: request %d but the script has %d responses; add a response to the script", n+1, len(p.script.Responses))},
		}}
	}
	r := p.script.Responses[n]
	return &stream{ctx: ctx, events: r.Events, hang: r.HangAfter}
}

type stream struct {
	ctx     context.Context
	events  []model.StreamEvent
	pos     int
	hang    int
	aborted bool
	mu      sync.Mutex
	closed  bool
}

// Next returns the next scripted event; see [model.Stream].
func (s *stream) Next() (model.StreamEvent, bool) {
	if s.aborted || s.isClosed() {
		return nil, false
	}
	if s.pos == s.hang {
		<-s.ctx.Done()
	}
	if s.ctx.Err() != nil {
		s.aborted = true
		return model.StreamError{Err: model.NewError(model.ErrAborted, "mock stream cancelled: %v", context.Cause(s.ctx))}, true
	}
	if s.pos >= len(s.events) {
		return nil, false
	}
	ev := s.events[s.pos]
	s.pos++
	return ev, true
}

func (s *stream) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Close ends the stream; Next then reports the end.
func (s *stream) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return nil
}
