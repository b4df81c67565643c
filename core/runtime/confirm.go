package runtime

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
)

// sessionUI is a session's side of the plugins' ui capability: their
// notifications become notice events and their confirmations
// confirmation_request events, answered with [Session.Answer]. The
// events are emitted on the run when a run's handler or tool asks
// (agent.Relay), else published directly (a command between runs).
type sessionUI struct {
	s *Session

	mu      sync.Mutex
	n       int
	pending map[string]*question
}

// question is a confirmation waiting for its answer.
type question struct {
	n      int // asked n-th in the session
	req    protocol.ConfirmationRequest
	answer chan bool // buffered; sent by the Answer that removed it from pending
}

var _ plugin.UI = (*sessionUI)(nil)

// emit puts the event mk makes on the session's stream, in order.
func (u *sessionUI) emit(ctx context.Context, mk func(protocol.Seq) protocol.Event) {
	if agent.Relay(ctx, mk) {
		return
	}
	u.s.hub.publish(mk(protocol.Seq{N: u.s.hub.next()}))
}

// Notify publishes a plugin's notification as a notice.
func (u *sessionUI) Notify(ctx context.Context, n plugin.Notification) {
	level := protocol.NoticeLevel(n.Level)
	u.emit(ctx, func(s protocol.Seq) protocol.Event {
		return protocol.Notice{Seq: s, Level: level, Text: n.Text, Plugin: n.Plugin}
	})
}

// Confirm asks the person and waits for [Session.Answer], the timeout
// (then the default), the end of ctx or of the session (dismissed). With
// no person (Config.Answers false) it ends at once as no_user.
func (u *sessionUI) Confirm(ctx context.Context, c plugin.Confirmation) (bool, error) {
	u.mu.Lock()
	u.n++
	q := &question{n: u.n, answer: make(chan bool, 1), req: protocol.ConfirmationRequest{ID: "q" + strconv.Itoa(u.n), Plugin: c.Plugin,
		CallID: c.CallID, Prompt: c.Prompt, Default: c.Default, TimeoutMillis: c.Timeout.Milliseconds()}}
	answers := u.s.rt.cfg.Answers
	if answers {
		if u.pending == nil {
			u.pending = make(map[string]*question)
		}
		u.pending[q.req.ID] = q
	}
	u.mu.Unlock()
	u.emit(ctx, func(s protocol.Seq) protocol.Event {
		u.mu.Lock()
		defer u.mu.Unlock()
		q.req.Seq = s
		return q.req
	})
	end := func(o protocol.ConfirmationOutcome, answer bool) {
		u.emit(ctx, func(s protocol.Seq) protocol.Event {
			return protocol.ConfirmationEnd{Seq: s, ID: q.req.ID, Outcome: o, Answer: answer}
		})
	}
	if !answers {
		end(protocol.ConfirmNoUser, false)
		return false, plugin.ErrNoUser
	}
	timer := time.NewTimer(c.Timeout)
	defer timer.Stop()
	outcome, answer := protocol.ConfirmDismissed, false
	select {
	case yes := <-q.answer:
		end(protocol.ConfirmAnswered, yes)
		return yes, nil
	case <-timer.C:
		outcome, answer = protocol.ConfirmTimedOut, c.Default
	case <-ctx.Done():
	case <-u.s.ctx.Done():
	}
	u.mu.Lock()
	_, waiting := u.pending[q.req.ID]
	delete(u.pending, q.req.ID)
	u.mu.Unlock()
	if !waiting { // an Answer took it first: its answer is on the way
		yes := <-q.answer
		end(protocol.ConfirmAnswered, yes)
		return yes, nil
	}
	end(outcome, answer)
	if outcome == protocol.ConfirmDismissed {
		return false, plugin.ErrDismissed
	}
	return answer, nil
}

// Answers reports whether a person answers the plugins' confirmation
// requests ([Config.Answers]).
func (rt *Runtime) Answers() bool { return rt.cfg.Answers }

// Answer answers the confirmation request id (a
// protocol.ConfirmationRequest's ID) with yes or no. It fails with a
// usage error when no such request is waiting: it was answered, timed
// out or dismissed, or never asked. Safe for concurrent use.
func (s *Session) Answer(id string, yes bool) error {
	u := &s.ui
	u.mu.Lock()
	q := u.pending[id]
	if q != nil {
		delete(u.pending, id)
	}
	waiting := make([]string, 0, len(u.pending))
	for k := range u.pending {
		waiting = append(waiting, k)
	}
	u.mu.Unlock()
	if q == nil {
		slices.Sort(waiting)
		if len(waiting) == 0 {
			return usagef("runtime: no confirmation %q is waiting for an answer (it was answered, timed out or withdrawn); none is waiting now", id)
		}
		return usagef("runtime: no confirmation %q is waiting for an answer (it was answered, timed out or withdrawn); waiting: %v", id, waiting)
	}
	q.answer <- yes
	return nil
}

// Confirmations returns the confirmation requests waiting for an answer,
// oldest first: a frontend that attaches while one waits shows it.
func (s *Session) Confirmations() []protocol.ConfirmationRequest {
	u := &s.ui
	u.mu.Lock()
	defer u.mu.Unlock()
	qs := make([]*question, 0, len(u.pending))
	for _, q := range u.pending {
		qs = append(qs, q)
	}
	slices.SortFunc(qs, func(a, b *question) int { return a.n - b.n })
	out := make([]protocol.ConfirmationRequest, len(qs))
	for i, q := range qs {
		out[i] = q.req
	}
	return out
}
