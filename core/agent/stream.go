package agent

import (
	"context"
	"errors"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/internal/streamasm"
	"github.com/smith-agent/smith/core/model"
)

// stream sends one request and assembles the response, emitting
// message_start, one message_update per non-terminal event, and (after
// recording) message_end. The returned error is a recording failure.
func (r *Run) stream() (model.AssistantMessage, error) {
	req := r.request()
	r.a.mu.Lock()
	provider := r.a.cfg.Provider
	r.a.mu.Unlock()
	if r.target != nil {
		provider, req.Model = r.target.Provider, r.target.Model
	}

	r.emit(protocol.MessageStart{Seq: r.seq(), Message: model.AssistantMessage{Content: []model.Content{}}})
	pump := streamasm.NewPump(provider.Stream(r.ctx, req))
	var asm streamasm.Assembler
read:
	for {
		select {
		case ev, ok := <-pump.Events():
			if !ok {
				if err := pump.Panicked(); err != nil {
					asm.Abort(err)
				}
				break read
			}
			if n, ok := protocol.RoutingEvent(ev, 0); ok {
				r.emit(protocol.Numbered(n, r.a.cfg.Sequence()))
				continue
			}
			if err := asm.Push(ev); err != nil {
				break read
			}
			switch ev.(type) {
			case model.Done, model.StreamError:
			default:
				r.emit(protocol.MessageUpdate{Seq: r.seq(), Delta: ev})
			}
		case <-r.queued:
			r.emitQueue()
		case <-r.ctx.Done():
			cause := context.Cause(r.ctx)
			if errors.Is(cause, errAborted) {
				asm.Abort(model.NewError(model.ErrAborted, "the run was aborted while the provider was streaming"))
			} else {
				asm.Abort(model.NewError(model.ErrAborted, "the run was aborted while the provider was streaming: %v", cause))
			}
			break read
		}
	}
	pump.Close(r.a.cfg.AbortGrace)
	msg := asm.Message()

	if msg.Content == nil {
		msg.Content = []model.Content{}
	}
	return msg, r.record(msg)
}
