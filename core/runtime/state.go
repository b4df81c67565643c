package runtime

import (
	"context"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// Model returns the session's model: as resolved when a run has prepared
// it, else as chosen (its targets not yet resolved).
func (s *Session) Model() protocol.ModelState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modelState()
}

func (s *Session) modelState() protocol.ModelState {
	if s.bound != nil {
		st := s.bound.state
		st.Targets = append([]string(nil), st.Targets...)
		return st
	}
	return protocol.ModelState{Name: s.modelName, Thinking: string(s.thinking), Targets: []string{}}
}

// SetModel changes the session's model or thinking level (an empty field
// keeps it; Thinking "default" asks for the provider's default). The new
// model is resolved at once — an unknown name, a missing credential or an
// unsupported thinking level is an error and nothing changes — and
// recorded as a model_change entry, so a resumed session keeps it. Refused
// with [ErrBusy] while a run is active.
func (s *Session) SetModel(ctx context.Context, p protocol.SetModelParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if s.running() {
		return ErrBusy
	}
	name, thinking := s.modelName, s.thinking
	if p.Model != "" {
		name = p.Model
	}
	switch p.Thinking {
	case "":
	case "default":
		thinking = ""
	default:
		l, err := catalog.ParseLevel(p.Thinking)
		if err != nil {
			return usagef("runtime: %w", err)
		}
		thinking = l
	}
	bm, err := s.rt.bindModel(ctx, name, thinking, s.journal, s.info.ID)
	if err != nil {
		return err
	}
	if s.agent != nil {
		if err := s.agent.Retarget(bm.provider, bm.modelID, s.system); err != nil {
			return err
		}
	}
	if len(bm.codecs) > 0 {
		s.rt.plugins.prepare(bm.codecs...)
	}
	s.bound, s.modelName, s.thinking = bm, name, thinking
	if s.file.Session().Len() > 0 {
		if err := s.store.RecordModelChange(session.ModelChange{Model: name, Thinking: string(thinking)}); err != nil {
			return err
		}
		s.recorded = true
		s.publishIdle(protocol.ModelChange{Seq: protocol.Seq{N: s.hub.next()}, Model: name, Thinking: string(thinking)})
	} else {
		s.recorded = false // recorded with the session's first input
	}
	// The prompt names the model: render it again for the next run.
	s.prompted = false
	for _, n := range bm.notices {
		s.notice(protocol.NoticeWarning, n)
	}
	return nil
}

// Stats returns the session's accounting over its selected branch: every
// response, those a compaction summarised and the requests of the
// compaction and branch summaries included.
func (s *Session) Stats() protocol.Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats()
}

func (s *Session) stats() protocol.Stats {
	var msgs []model.Message
	if s.agent != nil {
		msgs = s.agent.Messages()
	} else {
		s.store.View(func(sess *sessionfmt.Session) {
			if c, err := session.BranchContext(sess, sess.Selected()); err == nil {
				msgs = c.Messages
			}
		})
	}
	st := protocol.Stats{ContextTokens: model.Unknown(), ContextPercent: -1}
	// What a compaction took out of the context is accounted in its entry;
	// the responses it kept measured the longer context before it.
	st.Usage, st.Responses = s.priorUsage()
	stale, after, _ := s.staleContext()
	if stale > 0 {
		st.ContextTokens = model.Known(int64(after))
	}
	for i, m := range msgs {
		am, ok := m.(model.AssistantMessage)
		if !ok {
			continue
		}
		st.Usage = st.Usage.Add(am.Usage)
		st.Responses++
		if i >= stale {
			st.ContextTokens = am.Usage.Total()
		}
	}
	if s.bound != nil {
		st.ContextWindow = s.bound.state.Context
	}
	if n, ok := st.ContextTokens.Value(); ok && st.ContextWindow > 0 {
		st.ContextPercent = int(n * 100 / int64(st.ContextWindow))
	}
	return st
}

// State returns what the session is doing: its description, model,
// whether a run is active, the queued input and the accounting.
func (s *Session) State() protocol.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	var si protocol.SessionInfo
	s.store.View(func(sess *sessionfmt.Session) { si = s.rt.describe(s.info, sess, s.file.Path()) })
	st := protocol.State{Session: si, Model: s.modelState(), Running: s.running(),
		Steer: []model.UserMessage{}, FollowUp: []model.UserMessage{}, Stats: s.stats(), Confirmations: s.Confirmations()}
	if s.agent != nil {
		steer, follow := s.agent.Queued()
		st.Steer, st.FollowUp = append(st.Steer, steer...), append(st.FollowUp, follow...)
	}
	return st
}
