package runtime

import (
	"errors"
	"sync"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/protocol"
)

// idleBuffer bounds the events between runs awaiting the plugins'
// handlers: 64. Past it an event still reaches the frontends, not the
// handlers (a notice says so once).
const idleBuffer = 64

// idleEvents hands a session's events between runs to the plugins'
// handlers, in order, on one goroutine of the session.
type idleEvents struct {
	once   sync.Once
	ch     chan protocol.Event
	warned sync.Once
}

// publishIdle publishes ev, an event of the session outside any run (a
// model change, a compaction or a queue change asked for between runs, a
// notice), and hands it to the plugins' handlers ([agent.Agent.Observe])
// after the frontends have it; the events their handling causes are
// published after it. It never waits for the handlers, so it may be called
// with s.mu held. An event that turns out to fall in a run is the run's
// boundary's to deliver and is not handled here.
func (s *Session) publishIdle(ev protocol.Event) {
	s.hub.publish(ev)
	s.between.once.Do(func() {
		s.between.ch = make(chan protocol.Event, idleBuffer)
		go s.deliverIdle()
	})
	select {
	case s.between.ch <- ev:
	default:
		s.between.warned.Do(func() {
			s.hub.publish(protocol.Notice{Seq: protocol.Seq{N: s.hub.next()}, Level: protocol.NoticeWarning,
				Text: "runtime: the plugins' handlers fell behind the session's events between runs; some reached only the frontends"})
		})
	}
}

// deliverIdle delivers the idle events until the session closes.
func (s *Session) deliverIdle() {
	for {
		select {
		case <-s.ctx.Done():
			return
		case ev := <-s.between.ch:
			s.mu.Lock()
			if s.closed {
				s.mu.Unlock()
				return // Close unbinds the agent without the lock
			}
			a := s.agent
			if _, reloaded := ev.(protocol.PluginsReloaded); reloaded && a == nil && !s.running() {
				// The reload unbound the session: bind the new
				// generation now, so its handlers see the reload first.
				if s.prepare(s.ctx) == nil {
					a = s.agent
				}
			}
			s.mu.Unlock()
			if a == nil {
				continue // no run has bound the plugins yet
			}
			steer, follow := a.Queued()
			out, err := a.Observe(s.ctx, ev)
			if errors.Is(err, agent.ErrRunActive) {
				continue
			}
			for _, e := range out {
				s.hub.publish(e)
			}
			// Input the handlers queued is shown as a run shows it; not
			// handed to the handlers again (they caused it).
			if st, fu := a.Queued(); len(st) != len(steer) || len(fu) != len(follow) {
				q := s.Queue()
				s.hub.publish(protocol.QueueUpdate{Seq: protocol.Seq{N: s.hub.next()}, Steer: q.Steer, FollowUp: q.FollowUp})
			}
		}
	}
}
