package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// words is n bytes of text made of word w, so that a message's size (about
// n/4 tokens) is known.
func words(w string, n int) string { return strings.TrimSpace(strings.Repeat(w+" ", n/(len(w)+1))) }

// mockText is a scripted text response with the given usage (input,
// output and cost; the cache fields known zero).
func mockText(text string, input, output, cost int) string {
	b, _ := json.Marshal(text)
	return fmt.Sprintf(`{"text":%s,"usage":{"input":%d,"output":%d,"cache_read":0,"cache_write":0,"reasoning":0,"cost_nano_usd":%d}}`, b, input, output, cost)
}

func mockScript(responses ...string) string {
	return `{"mock_script":1,"responses":[` + strings.Join(responses, ",\n") + `]}`
}

// smallModel declares the mock script file name as a model of a 4,096-token
// context window (a compaction threshold of 2,560 tokens) and keeps 300
// tokens of recent context.
func smallModel(name string) string {
	return fmt.Sprintf("model-info %q { context 4096; max-output 1024; }\ncompaction { keep-recent-tokens 300; }\n", "mock/"+name)
}

// mockOf returns the session's mock provider.
func mockOf(t *testing.T, s *Session) *mockprovider.Provider {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.bound.provider.(*mockprovider.Provider)
	if !ok {
		t.Fatalf("the session's provider is %T, not the mock", s.bound.provider)
	}
	return p
}

// requestText renders a request's messages as "role:first words" lines,
// the summary as "summary".
func requestText(req model.Request) string {
	var out []string
	for _, m := range req.Messages {
		var text string
		switch m := m.(type) {
		case model.UserMessage:
			text = model.TextOf(m.Content)
			if strings.HasPrefix(text, session.SummaryHeading) {
				out = append(out, "summary")
				continue
			}
		case model.AssistantMessage:
			text = model.TextOf(m.Content)
			if m.Error != nil {
				text = "error " + string(m.Error.Kind)
			}
		case model.ToolResultMessage:
			text = m.CallID
		}
		first, _, _ := strings.Cut(text, " ")
		out = append(out, string(m.Role())+":"+first)
	}
	return strings.Join(out, " ")
}

// compactions returns the compaction entries of the session's file.
func compactions(t *testing.T, s *Session) []session.Compaction {
	t.Helper()
	var out []session.Compaction
	s.store.View(func(sess *sessionfmt.Session) {
		for i := range sess.Len() {
			if sess.Kind(i) == sessionfmt.KindCompaction {
				c, err := session.CompactionEntry(sess, i)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, c)
			}
		}
	})
	return out
}

// compactionEvents returns the compaction_start reasons and the
// compaction_end events of evs.
func compactionEvents(evs []protocol.Event) (starts []string, ends []protocol.CompactionEnd) {
	for _, ev := range evs {
		switch e := ev.(type) {
		case protocol.CompactionStart:
			starts = append(starts, e.Reason)
		case protocol.CompactionEnd:
			ends = append(ends, e)
		}
	}
	return starts, ends
}

func agentEnd(evs []protocol.Event) protocol.AgentEnd {
	for _, ev := range evs {
		if e, ok := ev.(protocol.AgentEnd); ok {
			return e
		}
	}
	return protocol.AgentEnd{}
}

// TestCompactionAtThreshold: a long conversation with a model of a small
// context window crosses the threshold before a request and compacts
// first: the model writes the summary from the product plugin's prompt
// over the older messages only; the next request carries the summary, the
// kept recent messages and the new input, and nothing else; the entry
// records the boundary, lineage, estimates and the summary's usage; the
// full transcript keeps everything; the accounting counts every response
// (the summarised ones and the summary's too); and a resumed session
// continues from the boundary.
func TestCompactionAtThreshold(t *testing.T) {
	w := newWorld(t)
	a1, a2 := words("alpha", 800), words("bravo", 800)
	w.write("compact.mock.json", mockScript(
		mockText(a1, 500, 200, 1000),
		mockText(a2, 2500, 200, 2000),
		mockText("SUMMARY: the user asked about alpha and bravo", 900, 50, 300),
		mockText("charlie", 600, 10, 400)))
	w.write("resume.mock.json", mockScript(mockText("delta", 700, 10, 0)))
	w.config(smallModel("compact.mock.json") + fmt.Sprintf("model-info %q { context 4096; max-output 1024; }\n", "mock/resume.mock.json"))
	rt := w.open(map[string]string{"model": "mock/compact.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "long"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{words("one", 800), words("two", 800)} {
		if starts, _ := compactionEvents(runPrompt(t, s, p)); len(starts) != 0 {
			t.Fatalf("compacted below the threshold: %v", starts)
		}
	}
	evs := runPrompt(t, s, "three")
	starts, ends := compactionEvents(evs)
	if len(starts) != 1 || starts[0] != protocol.CompactThreshold || len(ends) != 1 {
		t.Fatalf("compaction events %v %+v", starts, ends)
	}
	end := ends[0]
	if end.Error != "" || end.Entry == "" || end.Summarized != 3 || end.Kept != 1 || end.TokensBefore <= 2560 ||
		end.TokensAfter >= end.TokensBefore || end.SummaryBytes != len("SUMMARY: the user asked about alpha and bravo") {
		t.Fatalf("compaction_end %+v", end)
	}
	if c, _ := end.Usage.CostNanoUSD.Value(); c != 300 {
		t.Errorf("compaction_end usage %+v", end.Usage)
	}
	if e := agentEnd(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	} else if c, _ := e.Cost.Value(); c != 3700 {
		t.Errorf("the run's cost is %v, want every response's: 3700", e.Cost)
	}

	reqs := mockOf(t, s).Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	sum := reqs[2]
	input := model.TextOf(sum.Messages[0].(model.UserMessage).Content)
	if !strings.Contains(sum.System, "You summarise part of a coding session") || len(sum.Messages) != 1 || len(sum.Tools) != 0 ||
		!strings.Contains(input, "<conversation>") || !strings.Contains(input, "alpha") || !strings.Contains(input, "two two") ||
		strings.Contains(input, "bravo") {
		t.Fatalf("summary request: system %q\ninput %q", sum.System, input)
	}
	if got := requestText(reqs[3]); got != "summary assistant:bravo user:three" {
		t.Fatalf("the request after the compaction carries %s", got)
	}

	cs := compactions(t, s)
	if len(cs) != 1 {
		t.Fatalf("%d compaction entries", len(cs))
	}
	c := cs[0]
	var keptID, firstID, lastID sessionfmt.ID
	s.store.View(func(sess *sessionfmt.Session) {
		var msgs []int
		for _, i := range sess.History(sess.Selected(), nil) {
			if sess.Kind(i) == sessionfmt.KindMessage {
				msgs = append(msgs, i)
			}
		}
		firstID, lastID, keptID = sess.ID(msgs[0]), sess.ID(msgs[2]), sess.ID(msgs[3])
	})
	if c.FirstKept != keptID || c.SummarizedFirst != firstID || c.SummarizedLast != lastID || c.Summarized != 3 || c.Reason != "threshold" ||
		c.Model != "mock/compact.mock.json" || c.PriorResponses != 2 || c.TokensBefore != end.TokensBefore || c.TokensAfter != end.TokensAfter {
		t.Fatalf("entry %+v", c)
	}
	if in, _ := c.Prior.Input.Value(); in != 1400 {
		t.Errorf("prior accounting %+v", c.Prior)
	}
	full, err := s.History()
	if err != nil || len(full) != 6 {
		t.Fatalf("the full transcript has %d messages (%v); compaction deletes nothing", len(full), err)
	}
	st := s.Stats()
	if in, _ := st.Usage.Input.Value(); st.Responses != 4 || in != 4500 {
		t.Errorf("stats %+v", st)
	}
	if cost, _ := st.Usage.CostNanoUSD.Value(); cost != 3700 {
		t.Errorf("stats cost %v", st.Usage.CostNanoUSD)
	}
	info := s.Info()
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	rt2 := w.open(map[string]string{"model": "mock/resume.mock.json"}, nil)
	r, err := rt2.OpenSession(context.Background(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.Responses != 4 {
		t.Errorf("resumed stats %+v", st)
	}
	runPrompt(t, r, "four")
	if got := requestText(mockOf(t, r).Requests()[0]); got != "summary assistant:bravo user:three assistant:charlie user:four" {
		t.Fatalf("the resumed session's request carries %s", got)
	}
}

// TestCompactionOnOverflow: a request the provider refuses as too long for
// the context window compacts the context and is sent again exactly once:
// answered, the run completes; refused again, the run ends with the
// provider's error and no second compaction.
func TestCompactionOnOverflow(t *testing.T) {
	overflow := `{"error":{"kind":"context_overflow","message":"prompt is too long"}}`
	tests := []struct {
		name     string
		retry    string
		reason   protocol.EndReason
		wantLast string
	}{
		{name: "retried and answered", retry: mockText("answered", 10, 5, 0), reason: protocol.EndCompleted,
			wantLast: "summary assistant:first user:second assistant:error"},
		{name: "retry overflows again", retry: overflow, reason: protocol.EndProviderError,
			wantLast: "summary assistant:first user:second assistant:error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.write("o.mock.json", mockScript(mockText("first", 10, 5, 0), overflow, mockText("SUMMARY", 10, 5, 0), tt.retry))
			rt := w.open(map[string]string{"model": "mock/o.mock.json"}, nil)
			s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "o"})
			if err != nil {
				t.Fatal(err)
			}
			runPrompt(t, s, "start")
			evs := runPrompt(t, s, "second")
			starts, ends := compactionEvents(evs)
			if len(starts) != 1 || starts[0] != protocol.CompactOverflow || len(ends) != 1 || ends[0].Error != "" {
				t.Fatalf("compaction events %v %+v", starts, ends)
			}
			if e := agentEnd(evs); e.Reason != tt.reason {
				t.Fatalf("agent_end %+v, want %s", e, tt.reason)
			}
			reqs := mockOf(t, s).Requests()
			if len(reqs) != 4 {
				t.Fatalf("%d requests; want the first, the refused one, the summary and one retry", len(reqs))
			}
			if got := requestText(reqs[3]); got != tt.wantLast {
				t.Fatalf("the retry carries %s", got)
			}
			if n := len(compactions(t, s)); n != 1 {
				t.Fatalf("%d compaction entries", n)
			}
		})
	}
}

// TestIncompleteSummaryIsRefused: a summary cut off by the output limit,
// a failed or truncated summary stream, or an empty summary is never
// recorded: compaction_end says what happened and what to do, and the run
// goes on with its context unchanged (and compacts no more in that run);
// a manual compaction returns the error too.
func TestIncompleteSummaryIsRefused(t *testing.T) {
	tests := []struct {
		name    string
		summary string
		want    string
	}{
		{name: "length stop", summary: `{"text":"the user asked","stop":"length"}`, want: "cut off by the model's output limit"},
		{name: "stream error", summary: `{"error":{"kind":"server","message":"boom"}}`, want: "the summary request failed (model: server: boom)"},
		{name: "truncated stream", summary: `{"events":[{"type":"start"},{"type":"text_delta","index":0,"text":"the user"}]}`, want: "model: truncated"},
		{name: "empty summary", summary: `{"text":" "}`, want: "empty summary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.write("r.mock.json", mockScript(mockText(words("alpha", 800), 2600, 200, 0), tt.summary, mockText("bravo", 10, 5, 0), tt.summary))
			w.config(smallModel("r.mock.json"))
			rt := w.open(map[string]string{"model": "mock/r.mock.json"}, nil)
			s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "r"})
			if err != nil {
				t.Fatal(err)
			}
			runPrompt(t, s, "first")
			evs := runPrompt(t, s, "second")
			starts, ends := compactionEvents(evs)
			if len(starts) != 1 || len(ends) != 1 || !strings.Contains(ends[0].Error, tt.want) ||
				!strings.Contains(ends[0].Error, "nothing was compacted and the context stays as it was") || ends[0].Entry != "" {
				t.Fatalf("compaction events %v %+v", starts, ends)
			}
			if e := agentEnd(evs); e.Reason != protocol.EndCompleted {
				t.Fatalf("agent_end %+v", e)
			}
			reqs := mockOf(t, s).Requests()
			if got := requestText(reqs[2]); got != "user:first assistant:alpha user:second" {
				t.Fatalf("the run's request after the refused summary carries %s", got)
			}
			if n := len(compactions(t, s)); n != 0 {
				t.Fatalf("%d compaction entries recorded", n)
			}

			sub := s.Subscribe()
			defer sub.Close()
			res, err := s.Compact(context.Background(), protocol.CompactParams{Instructions: "be short"})
			if err == nil || !strings.Contains(err.Error(), tt.want) || res.Entry != "" || res.Reason != protocol.CompactManual {
				t.Fatalf("manual Compact = %+v, %v", res, err)
			}
			if n := len(compactions(t, s)); n != 0 {
				t.Fatalf("%d compaction entries recorded by hand", n)
			}
			h, _ := s.History()
			if len(s.agent.Messages()) != len(h) {
				t.Fatalf("the agent holds %d messages, the branch %d", len(s.agent.Messages()), len(h))
			}
		})
	}
}

// gated is a provider whose first request waits until released.
type gated struct {
	model.Provider
	entered, release chan struct{}
	once             sync.Once
}

func (g *gated) Stream(ctx context.Context, req *model.Request) model.Stream {
	first := false
	g.once.Do(func() { first = true; close(g.entered) })
	if first {
		select {
		case <-g.release:
		case <-ctx.Done():
		}
	}
	return g.Provider.Stream(ctx, req)
}

// TestManualCompactionKeepsQueuedInput: while a manual compaction runs,
// the session is busy — a prompt or another compaction is refused with
// ErrBusy — and steering and follow-up input is queued; when it ends the
// queued input starts a run from the compacted context, steering first,
// the follow-up when the run would stop.
func TestManualCompactionKeepsQueuedInput(t *testing.T) {
	w := newWorld(t)
	w.write("q.mock.json", mockScript(mockText(words("alpha", 400), 10, 5, 0), mockText(words("bravo", 400), 10, 5, 0),
		mockText("SUMMARY", 10, 5, 0), mockText("steered", 10, 5, 0), mockText("followed", 10, 5, 0)))
	w.config("compaction { keep-recent-tokens 150; }\n")
	rt := w.open(map[string]string{"model": "mock/q.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "q"})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "one")
	runPrompt(t, s, words("two", 400))
	mock := mockOf(t, s)
	g := &gated{Provider: mock, entered: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	s.bound.provider = g
	s.mu.Unlock()

	sub := s.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type outcome struct {
		res protocol.CompactResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := s.Compact(ctx, protocol.CompactParams{Instructions: "keep the words"})
		done <- outcome{res, err}
	}()
	<-g.entered
	if err := s.Submit(ctx, protocol.PromptParams{Text: "a prompt"}); !errors.Is(err, ErrBusy) {
		t.Fatalf("a prompt during the compaction = %v, want ErrBusy", err)
	}
	if _, err := s.Compact(ctx, protocol.CompactParams{}); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second compaction = %v, want ErrBusy", err)
	}
	if err := s.Submit(ctx, protocol.PromptParams{Text: "later", Delivery: protocol.DeliverFollowUp}); err != nil {
		t.Fatal(err)
	}
	if err := s.Submit(ctx, protocol.PromptParams{Text: "now", Delivery: protocol.DeliverSteer}); err != nil {
		t.Fatal(err)
	}
	if st := s.State(); !st.Running || len(st.Steer) != 1 || len(st.FollowUp) != 1 {
		t.Fatalf("state during the compaction %+v", st)
	}
	close(g.release)
	out := <-done
	if out.err != nil || out.res.Entry == "" || out.res.Reason != protocol.CompactManual {
		t.Fatalf("Compact = %+v, %v", out.res, out.err)
	}
	evs := untilSettled(t, ctx, sub)
	if got := types(evs); got[0] != "compaction_start" || got[1] != "compaction_end" || got[2] != "agent_start" {
		t.Fatalf("events %v", got)
	}
	reqs := mock.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests", len(reqs))
	}
	if in := model.TextOf(reqs[2].Messages[0].(model.UserMessage).Content); !strings.Contains(in, "<instructions>\nkeep the words\n</instructions>") {
		t.Fatalf("the summary request lacks the instructions: %q", in)
	}
	if got := requestText(reqs[3]); got != "summary assistant:bravo user:now" {
		t.Fatalf("the steered request carries %s", got)
	}
	if got := requestText(reqs[4]); got != "summary assistant:bravo user:now assistant:steered user:later" {
		t.Fatalf("the follow-up request carries %s", got)
	}
	if c := compactions(t, s); len(c) != 1 || c[0].Reason != "manual" || c[0].Instructions != "keep the words" {
		t.Fatalf("compaction entries %+v", c)
	}
}

// TestAbortDuringCompaction: an abort cancels a compaction's summary
// request, manual or automatic; nothing is recorded and the context stays.
// A manual compaction is refused while a run is active, and with nothing
// to compact.
func TestAbortDuringCompaction(t *testing.T) {
	t.Run("manual", func(t *testing.T) {
		w := newWorld(t)
		w.write("a.mock.json", mockScript(mockText("first", 10, 5, 0), `{"text":"SUMMARY of it all","hang_after":2}`, `{"text":"slow","hang_after":1}`))
		rt := w.open(map[string]string{"model": "mock/a.mock.json"}, nil)
		s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "a"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Compact(context.Background(), protocol.CompactParams{}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "nothing to compact") {
			t.Fatalf("compacting an empty session = %v", err)
		}
		runPrompt(t, s, "start")
		mock := mockOf(t, s)
		done := make(chan error, 1)
		go func() {
			_, err := s.Compact(context.Background(), protocol.CompactParams{})
			done <- err
		}()
		waitRequests(t, mock, 2)
		s.Abort()
		if err := <-done; err == nil || !strings.Contains(err.Error(), "aborted") {
			t.Fatalf("aborted Compact = %v", err)
		}
		if n := len(compactions(t, s)); n != 0 {
			t.Fatalf("%d compaction entries", n)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		sub := s.Subscribe()
		defer sub.Close()
		if err := s.Submit(ctx, promptText("again")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Compact(ctx, protocol.CompactParams{}); !errors.Is(err, ErrBusy) {
			t.Fatalf("Compact during a run = %v, want ErrBusy", err)
		}
		waitRequests(t, mock, 3)
		s.Abort()
		untilSettled(t, ctx, sub)
		if got := requestText(mock.Requests()[2]); got != "user:start assistant:first user:again" {
			t.Fatalf("the context after the aborted compaction: %s", got)
		}
	})
	t.Run("automatic", func(t *testing.T) {
		w := newWorld(t)
		w.write("b.mock.json", mockScript(mockText(words("alpha", 800), 2600, 200, 0), `{"text":"SUMMARY","hang_after":1}`))
		w.config(smallModel("b.mock.json"))
		rt := w.open(map[string]string{"model": "mock/b.mock.json"}, nil)
		s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "b"})
		if err != nil {
			t.Fatal(err)
		}
		runPrompt(t, s, "first")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		sub := s.Subscribe()
		defer sub.Close()
		if err := s.Submit(ctx, promptText("second")); err != nil {
			t.Fatal(err)
		}
		waitRequests(t, mockOf(t, s), 2)
		s.Abort()
		evs := untilSettled(t, ctx, sub)
		_, ends := compactionEvents(evs)
		if len(ends) != 1 || !strings.Contains(ends[0].Error, "aborted") {
			t.Fatalf("compaction_end %+v", ends)
		}
		if e := agentEnd(evs); e.Reason != protocol.EndAborted {
			t.Fatalf("agent_end %+v", e)
		}
		if n := len(compactions(t, s)); n != 0 {
			t.Fatalf("%d compaction entries", n)
		}
		if n := len(mockOf(t, s).Requests()); n != 2 {
			t.Fatalf("%d requests; the aborted run sends nothing after the compaction", n)
		}
	})
}

// waitRequests waits until the mock has received n requests.
func waitRequests(t *testing.T, p *mockprovider.Provider, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for len(p.Requests()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the mock received %d requests, want %d", len(p.Requests()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
