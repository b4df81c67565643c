package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// ReplayOptions configure [Runtime.Replay]. The zero value replays every
// turn, decodes the recorded provider responses again and runs nothing.
type ReplayOptions struct {
	// From and To bound the user's turns replayed (a turn is one input of
	// the user and the agent's work on it), 1-based and inclusive; 0 means
	// the first and the last turn.
	From, To int
	// ReExecute runs every recorded tool call again, in order, in a scratch
	// copy of Tree, and reports each result that differs from the recorded
	// one as a divergence. Turns before From are run too (unreported): the
	// later ones depend on what they did.
	ReExecute bool
	// Tree is the directory ReExecute copies; "" means the working
	// directory the session recorded. It is only read.
	Tree string
	// Emit receives every event in order; an error stops the replay and is
	// returned. Nil discards the events.
	Emit func(ReplayEvent) error
}

// ReplayEvent is one event of a replay with the time the session recorded
// the entry it reproduces (zero when it reproduces none), for pacing.
type ReplayEvent struct {
	Event protocol.Event
	At    time.Time
}

// Replay rebuilds the session ref names (a name, an id, an id prefix of
// 4+ characters, or the path of a session file) from what it recorded and
// sends its events to o.Emit: the same vocabulary a live run publishes,
// numbered from 1 by the replay, with no value that depends on when or
// where it runs, so the same session and options give the same events.
//
// It needs no provider, no credential and no network: the file is read
// without its writer lock and never written; recorded provider responses
// are decoded again through their codec plugin and compared with the
// recorded messages (a difference is a [protocol.Divergence]); effects
// recorded without a completion are shown as unknown and never run again;
// frames and entry kinds this Smith does not know are skipped and listed
// in the report, each also a notice. Divergences are notices too.
//
// A file that cannot be read is an error naming it and 'smith session
// repair'; a bad range or a missing tree wraps [ErrUsage]. Replay is safe
// for concurrent use; o.Emit is called from the calling goroutine.
func (rt *Runtime) Replay(ctx context.Context, ref string, o ReplayOptions) (protocol.ReplayReport, error) {
	path, name, err := rt.replayLocate(ref)
	if err != nil {
		return protocol.ReplayReport{}, err
	}
	sess, rep, err := sessionfmt.Load(path, nil)
	if err != nil {
		return protocol.ReplayReport{}, fmt.Errorf("runtime: session %s cannot be replayed: %w; 'smith session repair %s' writes a copy with what can be read", name, err, ref)
	}
	r := &replayer{rt: rt, ctx: ctx, o: o, sess: sess, emitFn: o.Emit}
	r.report.Session = name
	r.report.Divergences, r.report.Unknown, r.report.Skipped = []protocol.Divergence{}, []string{}, []string{}
	if err := r.plan(rep); err != nil {
		return r.report, err
	}
	if o.ReExecute {
		x, err := rt.replayScratch(ctx, o.Tree, r.meta.Cwd)
		if err != nil {
			return r.report, err
		}
		defer x.close()
		r.exec = x
	}
	err = r.walk()
	return r.report, err
}

// replayLocate resolves ref to a session file and the name to show.
func (rt *Runtime) replayLocate(ref string) (path, name string, err error) {
	if strings.ContainsRune(ref, filepath.Separator) || strings.HasSuffix(ref, ".session") {
		st, err := os.Stat(ref)
		if err != nil || st.IsDir() {
			return "", "", usagef("runtime: session file %q does not exist or is not a file; list sessions with 'smith session ls'", ref)
		}
		abs, err := filepath.Abs(ref)
		if err != nil {
			return "", "", usagef("runtime: session file %q: %w", ref, err)
		}
		return abs, abs, nil
	}
	d, err := rt.sessionDir()
	if err != nil {
		return "", "", err
	}
	info, err := d.Find(ref)
	if err != nil {
		return "", "", usagef("%w", err)
	}
	return info.Path, display(info), nil
}

// replayer walks one session's selected branch and emits its events.
type replayer struct {
	rt     *Runtime
	ctx    context.Context
	o      ReplayOptions
	sess   *sessionfmt.Session
	emitFn func(ReplayEvent) error
	report protocol.ReplayReport
	meta   session.Metadata
	exec   *replayExec

	path []int           // the selected branch, root first
	msgs []model.Message // per path position; nil for other entries
	runs []int           // the user's turn of each path position (0 before the first)
	// completions indexes the effect completions of the file by effect id.
	completions map[sessionfmt.ID]int

	seq     uint64
	skipped []string // notices of what was skipped, emitted first

	// The run being replayed.
	run       int
	inRun     bool
	turnOpen  bool
	turn      int
	last      model.AssistantMessage // the turn's assistant message
	calls     []model.ToolCall       // its calls not yet answered
	results   []model.ToolResultMessage
	ending    bool // the turn's response ends the run
	cost      model.Amount
	model     *protocol.ModelChange // a model change not yet emitted
	modelAt   time.Time
	exchange  *replayEffect             // the last provider exchange since a message
	effects   map[string][]replayEffect // the current turn's effects by tool call id
	lastStart time.Time
}

// replayEffect is one recorded effect intent.
type replayEffect struct {
	id     sessionfmt.ID
	intent replayIntent
	at     time.Time
}

// replayIntent and replayCompletion are the content of effect entries
// (as core/session writes them).
type replayIntent struct {
	Kind       string `cbor:"kind"`
	Parent     string `cbor:"parent"`
	Generation uint64 `cbor:"generation"`
	Input      string `cbor:"input"`
}

type replayCompletion struct {
	Mutation        string `cbor:"mutation"`
	Output          []byte `cbor:"output,omitempty"`
	OutputTruncated bool   `cbor:"output_truncated,omitempty"`
	Error           string `cbor:"error,omitempty"`
	Recovered       bool   `cbor:"recovered,omitempty"`
}

// plan decodes the branch's messages, finds the user's turns, checks the
// range and notes what the file holds that replay skips.
func (r *replayer) plan(rep *sessionfmt.Report) error {
	s := r.sess
	if rep != nil {
		if rep.Unknown > 0 {
			r.skip(fmt.Sprintf("skipped %d frame(s) of a type this Smith does not know (written by another version of Smith); the conversation is replayed without them", rep.Unknown))
		}
		if len(rep.Skipped) > 0 || rep.Orphans > 0 {
			r.skip(fmt.Sprintf("the session file %s is damaged: %d corrupt region(s) were skipped and the history is joined across them; 'smith session repair' writes a copy with the rest", r.report.Session, len(rep.Skipped)))
		}
		if rep.Truncated.Len > 0 {
			r.skip(fmt.Sprintf("the session file ends in a truncated frame (%d bytes at offset %d, an interrupted write); replayed up to it", rep.Truncated.Len, rep.Truncated.Off))
		}
	}
	if s.Selected() >= 0 {
		r.path = s.History(s.Selected(), nil)
	}
	r.meta, _ = session.SessionMetadata(s)
	r.completions = map[sessionfmt.ID]int{}
	for i := range s.Len() {
		if s.Kind(i) == sessionfmt.KindEffectCompletion {
			r.completions[s.Entry(i).Pair] = i
		}
	}
	r.msgs = make([]model.Message, len(r.path))
	r.runs = make([]int, len(r.path))
	if err := r.decodeMessages(); err != nil {
		return err
	}
	unknown := map[string]int{}
	run, inRun, expect, ending := 0, false, 0, false
	for p, i := range r.path {
		k := s.Kind(i)
		if !k.Known() {
			unknown[k.String()]++
		}
		if k != sessionfmt.KindMessage {
			r.runs[p] = run
			continue
		}
		switch m := r.msgs[p].(type) {
		case model.UserMessage:
			if !inRun {
				run, inRun = run+1, true
			}
		case model.AssistantMessage:
			if !inRun {
				run, inRun = run+1, true
			}
			expect = len(m.ToolCalls())
			ending = replayEnds(m)
			if expect == 0 && ending {
				inRun = false
			}
		case model.ToolResultMessage:
			if expect--; expect <= 0 && ending {
				inRun = false
			}
		}
		r.runs[p] = run
	}
	for _, k := range sortedKeys(unknown) {
		r.skip(fmt.Sprintf("skipped %d entr(ies) of kind %s, which this Smith does not know (written by another version of Smith)", unknown[k], k))
	}
	r.report.Turns = run
	from, to := r.o.From, r.o.To
	if from == 0 {
		from = 1
	}
	if to == 0 {
		to = run
	}
	switch {
	case from < 1 || to < 0:
		return usagef("runtime: turn range %d..%d: turns count from 1", r.o.From, r.o.To)
	case run == 0 && r.o.From == 0 && r.o.To == 0:
		from, to = 1, 0
	case from > to:
		return usagef("runtime: turn range %d..%d is empty (the session has %d turn(s)); give A..B with A ≤ B", from, to, run)
	case to > run:
		return usagef("runtime: turn range %d..%d goes past the session's %d turn(s); give A..B within 1..%d", from, to, run, run)
	}
	r.report.ShownFrom, r.report.ShownTo = from, to
	return nil
}

// decodeMessages decodes the branch's messages into r.msgs, in parallel
// over the available processors (decoding is most of a replay's work).
func (r *replayer) decodeMessages() error {
	workers := min(goruntime.GOMAXPROCS(0), 1+len(r.path)/256)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	chunk := (len(r.path) + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min((w+1)*chunk, len(r.path))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := lo; p < hi; p++ {
				i := r.path[p]
				if r.sess.Kind(i) != sessionfmt.KindMessage {
					continue
				}
				e := r.sess.Entry(i)
				m, err := session.EntryMessage(e.Content)
				if err != nil {
					errs[w] = fmt.Errorf("runtime: session %s cannot be replayed: entry %s is not a message this Smith can read: %w; 'smith session repair' keeps such entries, so replay the turns before it with --turns", r.report.Session, e.ID, err)
					return
				}
				r.msgs[p] = m
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *replayer) skip(text string) {
	r.report.Skipped = append(r.report.Skipped, text)
	r.skipped = append(r.skipped, text)
}

// replayEnds reports whether an assistant message ends its run.
func replayEnds(m model.AssistantMessage) bool {
	return m.Error != nil || m.Stop != model.StopToolUse || len(m.ToolCalls()) == 0
}

// shown reports whether the current run is in the replayed range.
func (r *replayer) shown() bool {
	return r.run >= r.report.ShownFrom && r.run <= r.report.ShownTo
}

// emit numbers ev and sends it, when the current run is shown.
func (r *replayer) emit(at time.Time, ev protocol.Event) error {
	if !r.shown() {
		return nil
	}
	return r.send(at, ev)
}

func (r *replayer) send(at time.Time, ev protocol.Event) error {
	r.seq++
	ev = protocol.Numbered(ev, r.seq)
	if r.emitFn == nil {
		return nil
	}
	return r.emitFn(ReplayEvent{Event: ev, At: at})
}

func (r *replayer) notice(at time.Time, text string) error {
	return r.emit(at, protocol.Notice{Level: protocol.NoticeWarning, Text: text})
}

// walk replays the branch.
func (r *replayer) walk() error {
	for _, text := range r.skipped {
		if err := r.send(time.Time{}, protocol.Notice{Level: protocol.NoticeWarning, Text: "replay: " + text}); err != nil {
			return err
		}
	}
	r.cost = model.Known(0)
	for p, i := range r.path {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		if r.runs[p] > r.report.ShownTo && !r.inRun {
			break
		}
		e := r.sess.Entry(i)
		var err error
		switch r.sess.Kind(i) {
		case sessionfmt.KindMessage:
			err = r.message(e, r.msgs[p], r.runs[p])
		case sessionfmt.KindModelChange:
			var mc session.ModelChange
			if sessionfmt.DecodeContent(e.Content, &mc) == nil {
				r.model, r.modelAt = &protocol.ModelChange{Model: mc.Model, Thinking: mc.Thinking}, e.Time
			}
		case sessionfmt.KindEffectIntent:
			var in replayIntent
			if sessionfmt.DecodeContent(e.Content, &in) != nil {
				continue
			}
			eff := replayEffect{id: e.Pair, intent: in, at: e.Time}
			if in.Kind == provider.ExchangeKind {
				r.exchange = &eff
				if c, ok := r.completion(eff.id); !ok || c.Recovered {
					err = r.unknownExchange(eff)
				}
			} else if r.effects != nil {
				r.effects[in.Parent] = append(r.effects[in.Parent], eff)
			}
		}
		if err != nil {
			return err
		}
	}
	if r.inRun {
		return r.interrupted(r.lastStart)
	}
	if r.model != nil && r.report.ShownTo == r.report.Turns {
		r.run = r.report.ShownTo
		return r.emitModel()
	}
	return nil
}

func (r *replayer) emitModel() error {
	if r.model == nil {
		return nil
	}
	mc := *r.model
	r.model = nil
	return r.emit(r.modelAt, mc)
}

// message replays one message entry of run.
func (r *replayer) message(e sessionfmt.Entry, m model.Message, run int) error {
	if run != r.run {
		if r.inRun {
			if err := r.interrupted(e.Time); err != nil {
				return err
			}
		}
		r.run, r.inRun, r.turn, r.turnOpen = run, true, 0, false
		r.last, r.calls, r.results = model.AssistantMessage{Content: []model.Content{}}, nil, nil
		r.lastStart = e.Time
		if r.shown() {
			// The model in effect leads the range.
			if err := r.emitModel(); err != nil {
				return err
			}
		}
		if err := r.emit(e.Time, protocol.AgentStart{Run: run}); err != nil {
			return err
		}
	}
	exchange := r.exchange
	r.exchange = nil
	switch m := m.(type) {
	case model.UserMessage:
		if err := r.openTurn(e.Time); err != nil {
			return err
		}
		if err := r.emit(e.Time, protocol.MessageStart{Message: m}); err != nil {
			return err
		}
		return r.emit(e.Time, protocol.MessageEnd{Message: m})
	case model.AssistantMessage:
		return r.assistant(e, m, exchange)
	case model.ToolResultMessage:
		return r.toolResult(e, m)
	}
	return nil
}

func (r *replayer) openTurn(at time.Time) error {
	if r.turnOpen {
		return nil
	}
	r.turn++
	r.turnOpen = true
	return r.emit(at, protocol.TurnStart{Turn: r.turn})
}

// assistant replays a response: its deltas (decoded again from the
// recorded body when there is one), the message, and the end of the turn
// and run when nothing follows.
func (r *replayer) assistant(e sessionfmt.Entry, m model.AssistantMessage, exchange *replayEffect) error {
	if err := r.openTurn(e.Time); err != nil {
		return err
	}
	r.cost = r.cost.Add(m.Usage.CostNanoUSD)
	r.last, r.calls, r.results, r.ending = m, m.ToolCalls(), nil, replayEnds(m)
	r.effects = map[string][]replayEffect{}
	if err := r.emit(e.Time, protocol.MessageStart{Message: model.AssistantMessage{Content: []model.Content{}}}); err != nil {
		return err
	}
	var deltas []model.StreamEvent
	if exchange != nil && r.shown() {
		var notes []string
		var div *protocol.Divergence
		deltas, notes, div = r.redecode(*exchange, m)
		for _, n := range notes {
			if err := r.notice(e.Time, n); err != nil {
				return err
			}
		}
		if div != nil {
			if err := r.diverged(e.Time, *div); err != nil {
				return err
			}
		}
	}
	if deltas == nil {
		deltas = replayDeltas(m)
	}
	for _, d := range deltas {
		if err := r.emit(e.Time, protocol.MessageUpdate{Delta: d}); err != nil {
			return err
		}
	}
	if err := r.emit(e.Time, protocol.MessageEnd{Message: m}); err != nil {
		return err
	}
	if len(r.calls) == 0 {
		return r.endTurn(e.Time)
	}
	return nil
}

// toolResult replays a tool call's execution and its result message; with
// ReExecute the call runs again in the scratch tree first.
func (r *replayer) toolResult(e sessionfmt.Entry, m model.ToolResultMessage) error {
	if !r.turnOpen {
		// A result with no response before it on the branch.
		return r.emit(e.Time, protocol.MessageEnd{Message: m})
	}
	call := model.ToolCall{ID: m.CallID, Name: m.Name, Arguments: []byte("{}")}
	for i, c := range r.calls {
		if c.ID == m.CallID {
			call = c
			r.calls = append(r.calls[:i:i], r.calls[i+1:]...)
			break
		}
	}
	if err := r.emit(e.Time, protocol.ToolExecutionStart{CallID: call.ID, Name: call.Name, Arguments: call.Arguments}); err != nil {
		return err
	}
	effs := r.effects[call.ID]
	var unknown []string
	for _, eff := range effs {
		if c, ok := r.completion(eff.id); !ok || c.Recovered {
			unknown = append(unknown, eff.id.String())
		}
	}
	if len(unknown) > 0 {
		if r.shown() {
			r.report.Unknown = append(r.report.Unknown, unknown...)
		}
		if err := r.notice(e.Time, fmt.Sprintf("effect %s of tool call %s (%s) has no recorded completion: whether it happened is unknown, and replay does not run it again", strings.Join(unknown, ", "), call.ID, call.Name)); err != nil {
			return err
		}
	} else if r.exec != nil && len(effs) > 0 && call.ArgumentsError == "" {
		observed := r.exec.run(r.ctx, call)
		if d, ok := replayCompare(m, observed); ok && r.shown() {
			d.Turn, d.EffectID = r.run, effs[0].id.String()
			if err := r.diverged(e.Time, d); err != nil {
				return err
			}
		}
	}
	if err := r.emit(e.Time, protocol.ToolExecutionEnd{CallID: call.ID, Name: call.Name, Result: m}); err != nil {
		return err
	}
	if err := r.emit(e.Time, protocol.MessageStart{Message: m}); err != nil {
		return err
	}
	if err := r.emit(e.Time, protocol.MessageEnd{Message: m}); err != nil {
		return err
	}
	r.results = append(r.results, m)
	if len(r.calls) == 0 {
		return r.endTurn(e.Time)
	}
	return nil
}

// endTurn closes the turn, and the run when its response ended it.
func (r *replayer) endTurn(at time.Time) error {
	results := r.results
	if results == nil {
		results = []model.ToolResultMessage{}
	}
	r.turnOpen = false
	if err := r.emit(at, protocol.TurnEnd{Turn: r.turn, Message: r.last, ToolResults: results}); err != nil {
		return err
	}
	if !r.ending {
		return nil
	}
	m := r.last
	end := protocol.AgentEnd{Reason: protocol.EndCompleted, Cost: r.cost}
	switch {
	case m.Error != nil && m.Error.Kind == model.ErrAborted:
		end.Reason, end.Error = protocol.EndAborted, "agent: run aborted"
	case m.Error != nil:
		end.Reason, end.Error = protocol.EndProviderError, m.Error.Error()
	case m.Stop == model.StopLength:
		end.Reason = protocol.EndLength
	case m.Stop == model.StopRefusal:
		end.Reason = protocol.EndRefusal
	}
	r.inRun = false
	if err := r.emit(at, end); err != nil {
		return err
	}
	return r.emit(at, protocol.Settled{})
}

// interrupted closes a run the session recorded no end of: each call
// without a result is shown as unknown (never run again).
func (r *replayer) interrupted(at time.Time) error {
	if r.turnOpen {
		for _, c := range r.calls {
			res := model.ToolResultMessage{CallID: c.ID, Name: c.Name, IsError: true, Mutation: model.MutationUnknown,
				Content: []model.Content{model.Text{Text: "unknown: the session recorded no result of this call (the run was interrupted); replay does not run it again"}}}
			for _, eff := range r.effects[c.ID] {
				if r.shown() {
					r.report.Unknown = append(r.report.Unknown, eff.id.String())
				}
			}
			if err := r.emit(at, protocol.ToolExecutionStart{CallID: c.ID, Name: c.Name, Arguments: c.Arguments}); err != nil {
				return err
			}
			if err := r.emit(at, protocol.ToolExecutionEnd{CallID: c.ID, Name: c.Name, Result: res}); err != nil {
				return err
			}
			r.results = append(r.results, res)
		}
		r.calls = nil
		results := r.results
		if results == nil {
			results = []model.ToolResultMessage{}
		}
		if err := r.emit(at, protocol.TurnEnd{Turn: r.turn, Message: r.last, ToolResults: results}); err != nil {
			return err
		}
	}
	r.inRun, r.turnOpen = false, false
	if err := r.emit(at, protocol.AgentEnd{Reason: protocol.EndAborted, Error: "replay: the session recorded no end of this turn (the run was interrupted)", Cost: r.cost}); err != nil {
		return err
	}
	return r.emit(at, protocol.Settled{})
}

// unknownExchange reports a provider exchange with no recorded
// completion: whether its request was answered is unknown, and replay
// never sends it.
func (r *replayer) unknownExchange(eff replayEffect) error {
	if !r.shown() {
		return nil
	}
	r.report.Unknown = append(r.report.Unknown, eff.id.String())
	return r.notice(eff.at, fmt.Sprintf("provider exchange %s has no recorded completion: whether the provider answered is unknown, and replay never sends it", eff.id))
}

// completion returns the recorded completion of effect id.
func (r *replayer) completion(id sessionfmt.ID) (replayCompletion, bool) {
	i, ok := r.completions[id]
	if !ok {
		return replayCompletion{}, false
	}
	var c replayCompletion
	if sessionfmt.DecodeContent(r.sess.Entry(i).Content, &c) != nil {
		return replayCompletion{}, false
	}
	return c, true
}

// diverged records d and shows it as a notice.
func (r *replayer) diverged(at time.Time, d protocol.Divergence) error {
	r.report.Divergences = append(r.report.Divergences, d)
	return r.notice(at, "replay: "+d.String())
}

// replayDeltas are the stream deltas that assemble into m: its start,
// then each content block whole.
func replayDeltas(m model.AssistantMessage) []model.StreamEvent {
	out := make([]model.StreamEvent, 0, 1+3*len(m.Content))
	out = append(out, model.Start{Provider: m.Provider, Model: m.Model, ResponseID: m.ResponseID})
	for i, c := range m.Content {
		switch c := c.(type) {
		case model.Text:
			out = append(out, model.TextDelta{Index: i, Text: c.Text})
		case model.Thinking:
			out = append(out, model.ThinkingDelta{Index: i, Text: c.Text, Signature: c.Signature, Encrypted: c.Encrypted, Redacted: c.Redacted})
		case model.ToolCall:
			args := string(c.Arguments)
			if c.ArgumentsError != "" {
				var raw string
				if err := jsonUnquote(c.Arguments, &raw); err == nil {
					args = raw
				}
			}
			out = append(out, model.ToolCallStart{Index: i, ID: c.ID, Name: c.Name},
				model.ToolCallDelta{Index: i, Arguments: args}, model.ToolCallEnd{Index: i, Signature: c.Signature})
		}
	}
	return out
}
