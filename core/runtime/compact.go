package runtime

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// compactGrace is how long an aborted compaction waits for a provider
// stream that ignores cancellation: 5s, as a run does.
const compactGrace = 5 * time.Second

// compactState is a session's compaction state. stop is guarded by the
// session's mutex; the summary model by its own.
type compactState struct {
	// stop cancels the compaction Session.Compact is running; nil when
	// none is.
	stop context.CancelFunc

	mu sync.Mutex
	// model is the configured compaction model, bound at its first use.
	model *boundModel
	// futile is the compaction whose notice that compacting again would
	// not help was given (see compactor.Due); zero before any.
	futile sessionfmt.ID
}

// Compact compacts the session's context now: the model summarises the
// older part of the selected branch (with p.Instructions added to the
// summary prompt), a compaction entry records the summary, and later
// requests carry the summary and the recent messages it keeps (up to
// keep-recent-tokens of them, never splitting a tool call from its
// results). Nothing is deleted: the full history stays in the file. It is
// published as compaction_start and compaction_end events and returns
// what it did. A summary that is not complete (cut off by the output
// limit, failed, refused or aborted) is never recorded: the error says
// what happened and what to do, and the context stays as it was.
//
// It is refused with [ErrBusy] while a run is active (a run compacts by
// itself between its requests). While it runs the session is busy: a
// prompt is refused with ErrBusy, steering and follow-up input is queued
// and starts a run when the compaction ends, as it would after a run's
// tool batch; [Session.Abort] and ctx abort it. Nothing to compact (no
// message since the last compaction) is an error wrapping [ErrUsage].
func (s *Session) Compact(ctx context.Context, p protocol.CompactParams) (protocol.CompactResult, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return protocol.CompactResult{Reason: protocol.CompactManual}, errClosed
	}
	if s.running() {
		s.mu.Unlock()
		return protocol.CompactResult{Reason: protocol.CompactManual}, ErrBusy
	}
	if err := s.prepare(ctx); err != nil {
		s.mu.Unlock()
		return protocol.CompactResult{Reason: protocol.CompactManual}, err
	}
	cctx, cancel := context.WithCancel(ctx)
	unlink := context.AfterFunc(s.ctx, cancel)
	done := make(chan struct{})
	// The session is busy until done: prompts are refused, input queued,
	// Wait waits and Close stops the compaction and waits for it.
	s.pumped, s.compaction.stop = done, cancel
	s.mu.Unlock()

	s.publishIdle(protocol.CompactionStart{Seq: protocol.Seq{N: s.hub.next()}, Reason: protocol.CompactManual})
	notify := func(ev protocol.Event) { s.hub.publish(protocol.Numbered(ev, s.hub.next())) }
	next, res, err := s.compactNow(cctx, protocol.CompactManual, p.Instructions, nil, notify)
	unlink()
	cancel()
	end := protocol.CompactionEnd{Seq: protocol.Seq{N: s.hub.next()}, CompactResult: res}
	if err != nil {
		end.Error = err.Error()
	}
	s.publishIdle(end)

	s.mu.Lock()
	defer s.mu.Unlock()
	defer close(done)
	s.compaction.stop = nil
	if err == nil {
		if e := s.agent.SetHistory(next); e != nil {
			// Unreachable: no run starts while the compaction runs.
			err = fmt.Errorf("runtime: compaction of session %s is recorded but the agent was busy (%w); it applies to the next run", display(s.info), e)
			s.resetAgent()
		}
	}
	s.startQueued("the compaction")
	if err != nil {
		if errors.Is(err, ErrUsage) {
			return res, err
		}
		return res, fmt.Errorf("runtime: compaction of session %s failed: %w", display(s.info), err)
	}
	return res, nil
}

// compactor is a session's [agent.Compactor]: a run compacts through it
// between its requests. It is safe for concurrent use.
type compactor struct{ s *Session }

var _ agent.Compactor = compactor{}

// Due reports whether req crosses the compaction threshold of the
// session's model (compaction's threshold or reserve-tokens); never when
// auto is off or the model's context window is unknown.
//
// Nor when compacting again would gain little: the compaction in force
// left the context above the threshold itself (its summary and the
// context it kept, with the system prompt and the tools, do not fit) and
// less than keep-recent-tokens of conversation was added since, so a new
// compaction could summarise only that little and would run again before
// every request. Then the request is sent as it is (a context_overflow
// still compacts it and sends it again), and notify gets a warning once
// per compaction saying what to change.
func (c compactor) Due(req *model.Request, notify func(protocol.Event)) bool {
	s := c.s
	conf := s.rt.conf.Compaction
	if !conf.AutoEnabled() {
		return false
	}
	s.mu.Lock()
	bm, name := s.bound, s.modelName
	s.mu.Unlock()
	if bm == nil {
		return false
	}
	limit := conf.Limit(bm.state.Context, maxOutput(s.rt.conf.MaxOutputTokens.Value, bm.described))
	if limit == 0 {
		return false
	}
	stale, after, id := s.staleContext()
	if estimateContext(req, stale, after) <= limit {
		return false
	}
	if stale == 0 || stale > len(req.Messages) || after <= limit {
		return true
	}
	keep := keepTokens(conf.KeepRecent(), limit)
	if messagesTokens(req.Messages[stale:]) >= keep {
		return true
	}
	s.compaction.mu.Lock()
	warned := s.compaction.futile == id
	s.compaction.futile = id
	s.compaction.mu.Unlock()
	if !warned {
		notify(protocol.Notice{Level: protocol.NoticeWarning, Text: fmt.Sprintf("the last compaction (entry %s) left the context at ~%s tokens, above the compaction threshold of %s tokens (%s has a %s-token window), so compacting again before each request would gain little: Smith compacts again once more than %s tokens of conversation are added, or when the provider refuses a request as too long. "+
			"To make room, lower compaction { keep-recent-tokens } in smith.kdl (%s now), use a model with a larger context window, or compact by hand (/compact, smith session compact) with instructions asking for a shorter summary",
			id, tokenCount(after), tokenCount(limit), name, tokenCount(bm.state.Context), tokenCount(keep), tokenCount(keep))})
	}
	return false
}

// keepTokens is how much recent context a compaction keeps verbatim:
// keep-recent-tokens, at most half the threshold limit (when known).
func keepTokens(keep, limit int) int {
	if limit > 0 {
		return min(keep, limit/2)
	}
	return keep
}

// tokenCount renders n with thousands separators: "12,345".
func tokenCount(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Compact compacts for a run (see [agent.Compactor]).
func (c compactor) Compact(ctx context.Context, reason string, history []model.Message, notify func(protocol.Event)) ([]model.Message, protocol.CompactionEnd) {
	next, res, err := c.s.compactNow(ctx, reason, "", history, notify)
	end := protocol.CompactionEnd{CompactResult: res}
	if err != nil {
		end.Error = err.Error()
		return nil, end
	}
	return next, end
}

// PriorCost is the cost of what the compaction in force took out of the
// context: its Prior accounting (see [session.Compaction]); zero without
// one, unknown when its entry does not decode.
func (c compactor) PriorCost() model.Amount {
	u, _ := c.s.priorUsage()
	return u.CostNanoUSD
}

// priorUsage returns the accounting of the selected branch that its
// context holds in no assistant message, and the count of its responses:
// what the compaction in force took out of the context and the branch
// summaries in it ([session.PriorUsage]); zero without either, unknown
// when an entry does not decode.
func (s *Session) priorUsage() (model.Usage, int) {
	var u model.Usage
	var n int
	var err error
	s.store.View(func(sess *sessionfmt.Session) { u, n, err = session.PriorUsage(sess, sess.Selected()) })
	if err != nil {
		return model.Usage{}, 0
	}
	return u, n
}

// staleContext returns how many leading messages of the selected branch's
// context predate the compaction in force (0 without one), that
// compaction's estimate of the context after it, and its entry's id.
func (s *Session) staleContext() (stale, after int, id sessionfmt.ID) {
	s.store.View(func(sess *sessionfmt.Session) {
		leaf := sess.Selected()
		if leaf < 0 {
			return
		}
		at, _, n, ok := session.CompactionInForce(sess, sess.History(leaf, nil), leaf)
		if !ok {
			return
		}
		if c, err := session.CompactionEntry(sess, at); err == nil {
			stale, after, id = n, c.TokensAfter, sess.ID(at)
		}
	})
	return stale, after, id
}

func knownZero() model.Usage {
	z := model.Known(0)
	return model.Usage{Input: z, Output: z, CacheRead: z, CacheWrite: z, Reasoning: z, CostNanoUSD: z}
}

// summaryModel is the model that writes the summaries: the configured
// compaction model, else the session's.
type summaryModel struct {
	name     string // as chosen, recorded in the entry
	provider model.Provider
	modelID  string
	window   int // context window in tokens; 0 when unknown
	output   int // the output bound of its responses
}

// summarizer returns the summary model. The configured one is bound at
// its first use; an unknown name or a missing credential is an error.
func (s *Session) summarizer(ctx context.Context, bm *boundModel, name string) (summaryModel, error) {
	cm := s.rt.conf.Compaction.Model
	if cm.IsSet() {
		s.compaction.mu.Lock()
		defer s.compaction.mu.Unlock()
		if s.compaction.model == nil {
			b, err := s.rt.bindModel(ctx, cm.Value, "", s.journal, s.info.ID)
			if err != nil {
				return summaryModel{}, fmt.Errorf("the compaction model %q (from %s) cannot be used: %w; fix compaction { model … }, or remove it to summarise with the session's model", cm.Value, cm.Source, err)
			}
			s.compaction.model = b
		}
		bm, name = s.compaction.model, cm.Value
	}
	return summaryModel{name: name, provider: bm.provider, modelID: bm.modelID, window: bm.state.Context,
		output: maxOutput(s.rt.conf.MaxOutputTokens.Value, bm.described)}, nil
}

// compactNow compacts the selected branch's context for reason and
// returns the context it leaves (the summary, then the kept messages),
// what it did, and, when it did nothing, why. history, when not nil, is
// the running agent's history, which must be the recorded context: when
// a message failed to be recorded they differ, and nothing is compacted.
// notify receives the summary request's routing events (without a
// sequence number). It is called without s.mu held.
func (s *Session) compactNow(ctx context.Context, reason, instructions string, history []model.Message, notify func(protocol.Event)) ([]model.Message, protocol.CompactResult, error) {
	res := protocol.CompactResult{Reason: reason}
	conf := s.rt.conf.Compaction
	s.mu.Lock()
	bm, binding, system, name := s.bound, s.binding, s.system, s.modelName
	var facts plugin.Facts
	if binding != nil {
		facts = s.facts()
	}
	s.mu.Unlock()
	if bm == nil || binding == nil {
		return nil, res, errors.New("the session's model is not resolved yet; submit input first, then compact")
	}
	var defs []model.ToolDefinition
	for _, t := range binding.Tools() {
		defs = append(defs, t.Definition())
	}

	var cur session.Context
	var ids []sessionfmt.ID
	var prev sessionfmt.ID
	var err error
	s.store.View(func(sess *sessionfmt.Session) {
		if cur, err = session.BranchContext(sess, sess.Selected()); err != nil {
			return
		}
		ids = make([]sessionfmt.ID, len(cur.Entries))
		for k, i := range cur.Entries {
			if i >= 0 {
				ids[k] = sess.ID(i)
			}
		}
		if cur.At >= 0 {
			prev = sess.ID(cur.At)
		}
	})
	if err != nil {
		return nil, res, fmt.Errorf("the session's context cannot be read (%v); nothing was compacted", err)
	}
	msgs := cur.Messages
	if history != nil && len(history) != len(msgs) {
		return nil, res, fmt.Errorf("the run holds %d messages but the session recorded %d of them as its context, so a compaction could lose some; nothing was compacted (start a new run to continue from what is recorded)", len(history), len(msgs))
	}
	after := 0
	start, previous := 0, ""
	prior, responses := knownZero(), 0
	if c := cur.Compaction; c != nil {
		start, previous, after = 1, c.Summary, c.TokensAfter
		prior, responses = c.Prior, c.PriorResponses
	}
	res.TokensBefore = estimateContext(&model.Request{System: system, Tools: defs, Messages: msgs}, cur.Stale, after)

	keep := keepTokens(conf.KeepRecent(), conf.Limit(bm.state.Context, maxOutput(s.rt.conf.MaxOutputTokens.Value, bm.described)))
	cut := chooseBoundary(msgs, start, keep)
	if cut < 0 {
		return nil, res, usagef("there is nothing to compact: the context holds no message since the last compaction")
	}

	sm, err := s.summarizer(ctx, bm, name)
	if err != nil {
		return nil, res, err
	}
	req, err := summaryRequest(ctx, binding, facts, sm, previous, msgs[start:cut], instructions, compactionJob)
	if err != nil {
		return nil, res, err
	}
	text, usage, err := summarize(ctx, sm.provider, req, compactGrace, notify, compactionJob)
	res.Usage = usage
	if err != nil {
		return nil, res, err
	}

	kept := msgs[cut:]
	tokensAfter := requestTokens(system, defs, append([]model.Message{session.SummaryMessage(text)}, kept...))
	for k, m := range msgs[start:cut] {
		if am, ok := m.(model.AssistantMessage); ok {
			prior, responses = prior.Add(am.Usage), responses+1
		}
		if u, ok := cur.BranchSummaries[start+k]; ok {
			prior, responses = prior.Add(u), responses+1
		}
	}
	c := session.Compaction{Summary: text, SummarizedFirst: ids[start], SummarizedLast: ids[cut-1], Summarized: cut - start,
		Previous: prev, TokensBefore: res.TokensBefore, TokensAfter: tokensAfter, Reason: reason, Instructions: instructions,
		Model: sm.name, Usage: usage, Prior: prior.Add(usage), PriorResponses: responses + 1}
	if cut < len(msgs) {
		c.FirstKept = ids[cut]
	}
	id, err := s.store.RecordCompaction(c)
	if err != nil {
		return nil, res, fmt.Errorf("the summary could not be recorded (%v); nothing was compacted", err)
	}
	var next session.Context
	s.store.View(func(sess *sessionfmt.Session) { next, err = session.BranchContext(sess, sess.Selected()) })
	if err != nil {
		return nil, res, fmt.Errorf("the compaction %s is recorded, but the context after it cannot be read (%v); resume the session to continue from it", id, err)
	}
	res.Entry, res.Summarized, res.Kept = id.String(), cut-start, len(kept)
	res.TokensAfter, res.SummaryBytes = tokensAfter, len(text)
	return next.Messages, res, nil
}
