package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// branchInstructions come before the user's in a branch summary request:
// the compaction prompt, which instructs every summary, is told what this
// one is for.
const branchInstructions = "The conversation above is a branch of the session that the user left: they went back to an earlier point to continue from there instead, and this summary is placed at that point. " +
	"Summarise what was tried on this branch, what was learned and decided, and what was changed (files it changed may still be changed), so that the work going on from the earlier point can draw on it. " +
	"The conversation before the branch is not shown, and the earlier point knows it already: do not guess at it."

// branchLeft is the branch a move leaves behind, as read before the
// summary is written.
type branchLeft struct {
	to, from, fork sessionfmt.ID // the entry moved to, the leaf left, the last entry both share
	first, last    sessionfmt.ID // its first and last message entry
	msgs           []model.Message
}

// selectSummarized is [Session.Select] with a summary: the model
// summarises the branch the move to entry i leaves behind (the path from
// the entry both branches share to the selected leaf), and one durable
// branch_summary entry under entry i records the summary and moves the
// session there. Like a compaction, the summary is written by the
// compaction model (else the session's) from the plugins' compaction
// prompt, and one that is not complete (cut off, failed, refused,
// aborted) is never recorded: the session stays where it was and the
// error says why. Meanwhile the session is busy as during a compaction:
// [Session.Abort] aborts the summary, input sent with steer or follow_up
// is queued and starts a run from the new position. A move that leaves no
// message behind moves without a summary. Called with s.mu held; it
// unlocks it.
func (s *Session) selectSummarized(ctx context.Context, i int, p protocol.SelectParams) (protocol.SelectResult, error) {
	var left branchLeft
	var err error
	var calls bool
	s.store.View(func(sess *sessionfmt.Session) {
		if calls, err = session.AwaitsResults(sess, i); calls || err != nil {
			return
		}
		from := sess.Selected()
		var fork int
		var entries []int
		fork, entries, left.msgs, err = session.LeftBehind(sess, from, i)
		if err != nil || len(entries) == 0 {
			return
		}
		left.to, left.from = sess.ID(i), sess.ID(from)
		left.first, left.last = sess.ID(entries[0]), sess.ID(entries[len(entries)-1])
		if fork >= 0 {
			left.fork = sess.ID(fork)
		}
	})
	if calls {
		s.mu.Unlock()
		return protocol.SelectResult{}, usagef("runtime: entry %s of session %s is a model reply that calls tools, and their results belong right after it, so a branch summary cannot go there; select one of its tool results (or the entry before it) with summarize, or select it without summarize", p.Ref, display(s.info))
	}
	if err != nil {
		s.mu.Unlock()
		return protocol.SelectResult{}, fmt.Errorf("runtime: the branch session %s would leave cannot be read (%v); the session stays where it was", display(s.info), err)
	}
	if len(left.msgs) == 0 {
		defer s.mu.Unlock()
		if err := s.moveTo(i); err != nil {
			return protocol.SelectResult{}, fmt.Errorf("runtime: select entry %s of session %s: %w", p.Ref, display(s.info), err)
		}
		return protocol.SelectResult{Entry: s.file.Session().ID(i).String()}, nil
	}
	if err := s.prepare(ctx); err != nil {
		s.mu.Unlock()
		return protocol.SelectResult{}, err
	}
	cctx, cancel := context.WithCancel(ctx)
	unlink := context.AfterFunc(s.ctx, cancel)
	done := make(chan struct{})
	// Busy until done, as during a compaction (see Session.Compact).
	s.pumped, s.compaction.stop = done, cancel
	bm, binding, name, facts := s.bound, s.binding, s.modelName, s.facts()
	s.mu.Unlock()

	notify := func(ev protocol.Event) { s.hub.publish(protocol.Numbered(ev, s.hub.next())) }
	var text, by string
	var usage model.Usage
	sm, err := s.summarizer(cctx, bm, name)
	if err == nil {
		var req *model.Request
		req, err = summaryRequest(cctx, binding, facts, sm, "", left.msgs, branchPrompt(p.Instructions), branchJob)
		if err == nil {
			text, usage, err = summarize(cctx, sm.provider, req, compactGrace, notify, branchJob)
			by = sm.name
		}
	}
	unlink()
	cancel()

	s.mu.Lock()
	defer s.mu.Unlock()
	defer close(done)
	s.compaction.stop = nil
	var id sessionfmt.ID
	if err == nil {
		id, err = s.store.RecordBranchSummary(left.to, session.BranchSummary{Summary: text, From: left.from, Fork: left.fork,
			SummarizedFirst: left.first, SummarizedLast: left.last, Summarized: len(left.msgs),
			Instructions: strings.TrimSpace(p.Instructions), Model: by, Usage: usage})
		if err != nil {
			err = fmt.Errorf("the summary could not be recorded (%v); the session stays where it was", err)
		}
	}
	if err == nil {
		s.moved()
	}
	s.startQueued("the branch summary")
	if err != nil {
		var sf *summaryFailure
		if errors.As(err, &sf) {
			err = fmt.Errorf("%w; select the entry again without summarize to move without a summary", err)
		}
		return protocol.SelectResult{}, fmt.Errorf("runtime: the branch summary of session %s failed: %w", display(s.info), err)
	}
	return protocol.SelectResult{Entry: id.String(), Summary: &protocol.BranchSummaryResult{Entry: id.String(), From: left.from.String(),
		Summarized: len(left.msgs), SummaryBytes: len(text), Usage: usage}}, nil
}

// branchPrompt is the instructions of a branch summary request: what it
// is for, then the user's.
func branchPrompt(user string) string {
	if u := strings.TrimSpace(user); u != "" {
		return branchInstructions + "\n\n" + u
	}
	return branchInstructions
}

// startQueued starts a run with the input queued while the session was
// busy without one (during names the work: a compaction, a branch
// summary), if any. Called with s.mu held, no run active.
func (s *Session) startQueued(during string) {
	if s.closed {
		return
	}
	if s.agent == nil {
		if len(s.carrySteer)+len(s.carryFollow) == 0 {
			return
		}
		if err := s.prepare(s.ctx); err != nil {
			s.notice(protocol.NoticeWarning, fmt.Sprintf("the input queued during %s could not start a run: %v; it stays queued", during, err))
			return
		}
	}
	if steer, follow := s.agent.Queued(); len(steer)+len(follow) > 0 {
		if err := s.start(s.ctx); err != nil {
			s.notice(protocol.NoticeWarning, fmt.Sprintf("the input queued during %s could not start a run: %v; it stays queued", during, err))
		}
	}
}
