package agent

import (
	"context"
	"errors"
	"time"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/internal/streamasm"
	"github.com/smith-agent/smith/core/model"
)

// stream sends one request and assembles the response, emitting
// message_start, one message_update per non-terminal event, and (after
// recording) message_end. The returned error is a recording failure.
func (r *Run) stream() (model.AssistantMessage, error) {
	r.a.mu.Lock()
	req := &model.Request{Model: r.a.cfg.Model, System: r.a.cfg.System,
		Messages: r.a.history[:len(r.a.history):len(r.a.history)], Tools: r.a.defs}
	provider := r.a.cfg.Provider
	r.a.mu.Unlock()

	r.emit(protocol.MessageStart{Seq: r.seq(), Message: model.AssistantMessage{Content: []model.Content{}}})
	s := provider.Stream(r.ctx, req)
	evs := make(chan model.StreamEvent, 16)
	stop := make(chan struct{})
	exited := make(chan struct{})
	var panicked *model.Error
	go func() {
		defer close(exited)
		defer close(evs)
		defer func() {
			if p := recover(); p != nil {
				// A provider defect must not take the process down; the
				// stream fails as malformed (read after evs is closed).
				panicked = model.NewError(model.ErrMalformed, "the provider panicked: %v", p)
			}
		}()
		for {
			ev, ok := s.Next()
			if !ok {
				return
			}
			select {
			case evs <- ev:
			case <-stop:
				return
			}
		}
	}()

	var asm streamasm.Assembler
read:
	for {
		select {
		case ev, ok := <-evs:
			if !ok {
				if panicked != nil {
					asm.Abort(panicked)
				}
				break read
			}
			switch n := ev.(type) {
			case model.Retrying:
				r.emit(protocol.ProviderRetry{Seq: r.seq(), Target: n.Target, Attempt: n.Attempt, Error: n.Err, WaitMillis: n.Wait.Milliseconds()})
				continue
			case model.FailingOver:
				r.emit(protocol.ProviderFailover{Seq: r.seq(), From: n.From, To: n.To, Error: n.Err})
				continue
			case model.Note:
				level := protocol.NoticeWarning
				if n.Progress {
					level = protocol.NoticeInfo
				}
				r.emit(protocol.Notice{Seq: r.seq(), Level: level, Text: n.Text})
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
	close(stop)
	_ = s.Close()
	select {
	case <-exited:
	default:
		r.awaitExit(exited)
	}
	msg := asm.Message()

	if msg.Content == nil {
		msg.Content = []model.Content{}
	}
	return msg, r.record(msg)
}

// awaitExit waits for the stream goroutine for at most the abort grace. A
// provider that ignores cancellation leaves its goroutine behind (it exits
// when Next returns) and nothing it sends is used.
func (r *Run) awaitExit(exited <-chan struct{}) {
	t := time.NewTimer(r.a.cfg.AbortGrace)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
	}
}
