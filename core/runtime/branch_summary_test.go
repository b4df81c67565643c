package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// branchWorld is a session with two exchanges ("first …", "second …")
// answered by the mock script b.mock.json, whose later responses follow
// extra; it returns the session and the first answer's entry id.
func branchWorld(t *testing.T, extra ...string) (*world, *Session, string) {
	t.Helper()
	w := newWorld(t)
	w.write("b.mock.json", mockScript(append([]string{mockText("first answer", 100, 10, 100), mockText("second answer", 200, 10, 200)}, extra...)...))
	w.write("after.mock.json", mockScript(mockText("third answer", 300, 10, 400), mockText("SUMMARY of it all", 50, 5, 20)))
	w.config("compaction { keep-recent-tokens 10; }\n")
	rt := w.open(map[string]string{"model": "mock/b.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "first question")
	runPrompt(t, s, "second question")
	for _, n := range s.Tree() {
		if n.Role == "assistant" {
			return w, s, n.ID
		}
	}
	t.Fatal("no assistant entry")
	return nil, nil, ""
}

// branchSummaries returns the branch summary entries of the session.
func branchSummaries(t *testing.T, s *Session) []session.BranchSummary {
	t.Helper()
	var out []session.BranchSummary
	s.store.View(func(sess *sessionfmt.Session) {
		for i := range sess.Len() {
			if sess.Kind(i) == sessionfmt.KindBranchSummary {
				b, err := session.BranchSummaryEntry(sess, i)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, b)
			}
		}
	})
	return out
}

// selected returns the id of the session's selected entry.
func selected(s *Session) string {
	var id string
	s.store.View(func(sess *sessionfmt.Session) { id = sess.ID(sess.Selected()).String() })
	return id
}

// TestSelectSummarized: moving back to the first answer with summarize
// has the model summarise the branch left behind (the second question
// and answer, and nothing before the fork) from the compaction prompt with
// the branch's instructions and the user's; one branch_summary entry
// under the first answer records the summary, the branch's lineage and
// the request's usage, and becomes the selected entry; the next request
// carries the summary at its place; the accounting counts it, resumed
// too; and the full transcript of the new branch stays its messages.
func TestSelectSummarized(t *testing.T) {
	w, s, firstAnswer := branchWorld(t, mockText("SUMMARY: the second question was answered", 900, 50, 30))
	oldLeaf, mock := selected(s), mockOf(t, s)
	res, err := s.Select(context.Background(), protocol.SelectParams{Ref: firstAnswer, Summarize: true, Instructions: "keep the names"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary == nil || res.Entry != res.Summary.Entry || res.Summary.From != oldLeaf || res.Summary.Summarized != 2 ||
		res.Summary.SummaryBytes != len("SUMMARY: the second question was answered") {
		t.Fatalf("Select = %+v %+v", res, res.Summary)
	}
	if c, _ := res.Summary.Usage.CostNanoUSD.Value(); c != 30 {
		t.Errorf("the summary's usage %+v", res.Summary.Usage)
	}
	reqs := mock.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	input := model.TextOf(reqs[2].Messages[0].(model.UserMessage).Content)
	if !strings.Contains(reqs[2].System, "You summarise part of a coding session") || len(reqs[2].Tools) != 0 ||
		!strings.Contains(input, "second question") || !strings.Contains(input, "second answer") || strings.Contains(input, "first") ||
		!strings.Contains(input, "a branch of the session that the user left") || !strings.Contains(input, "keep the names") {
		t.Fatalf("summary request: system %q\ninput %q", reqs[2].System, input)
	}

	bs := branchSummaries(t, s)
	if len(bs) != 1 {
		t.Fatalf("%d branch summaries", len(bs))
	}
	b := bs[0]
	var msgs []string // the message entries, oldest first
	var parent string
	for _, n := range s.Tree() {
		if n.Kind == "message" {
			msgs = append(msgs, n.ID)
		}
		if n.ID == res.Entry {
			parent = n.Parent
		}
	}
	if parent != firstAnswer || selected(s) != res.Entry || b.From.String() != oldLeaf || b.Fork.String() != firstAnswer ||
		b.SummarizedFirst.String() != msgs[2] || b.SummarizedLast.String() != msgs[3] || b.Summarized != 2 ||
		b.Instructions != "keep the names" || b.Model != "mock/b.mock.json" {
		t.Fatalf("branch summary %+v (under %s, selected %s)", b, parent, selected(s))
	}

	if err := s.SetModel(context.Background(), protocol.SetModelParams{Model: "mock/after.mock.json"}); err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "third question")
	if got := requestText(mockOf(t, s).Requests()[0]); got != "user:first assistant:first user:[Summary user:third" {
		t.Fatalf("the request after the move carries %s", got)
	}
	if e := agentEnd(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	} else if c, _ := e.Cost.Value(); c != 530 {
		t.Errorf("the run's cost is %v, want the branch's: 100 + 30 + 400", e.Cost)
	}
	check := func(what string, st protocol.Stats, responses int, cost int64) {
		t.Helper()
		if c, _ := st.Usage.CostNanoUSD.Value(); st.Responses != responses || c != cost {
			t.Errorf("%s stats %+v, want %d responses costing %d", what, st, responses, cost)
		}
	}
	check("", s.Stats(), 3, 530)
	var u model.Usage
	var n int
	s.store.View(func(sess *sessionfmt.Session) { u, n, err = session.BranchUsage(sess, sess.Selected()) })
	if c, _ := u.CostNanoUSD.Value(); err != nil || n != 3 || c != 530 {
		t.Errorf("BranchUsage = %+v, %d, %v", u, n, err)
	}
	if h, _ := s.History(); len(h) != 4 {
		t.Fatalf("the transcript holds %d messages, want the new branch's 4", len(h))
	}
	// A compaction that summarises the branch summary keeps its cost in
	// the accounting.
	if _, err := s.Compact(context.Background(), protocol.CompactParams{}); err != nil {
		t.Fatal(err)
	}
	if cs := compactions(t, s); len(cs) != 1 || cs[0].Summarized < 3 || cs[0].PriorResponses != 3 {
		t.Fatalf("the compaction over the branch summary: %+v", cs)
	}
	check("compacted", s.Stats(), 4, 550)
	info := s.Info()
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, err := w.open(nil, nil).OpenSession(context.Background(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	check("resumed", r.Stats(), 4, 550)
}

// TestSelectSummaryIncomplete: a branch summary cut off by the output
// limit, failed, or aborted is never recorded and the session stays where
// it was, the error saying why and how to move without one; a move that
// leaves nothing behind records no summary and asks the model nothing.
func TestSelectSummaryIncomplete(t *testing.T) {
	tests := []struct {
		name, summary, want string
		abort               bool
	}{
		{name: "length stop", summary: `{"text":"the user asked","stop":"length"}`, want: "cut off by the model's output limit"},
		{name: "stream error", summary: `{"error":{"kind":"server","message":"boom"}}`, want: "the summary request failed"},
		{name: "aborted", summary: `{"text":"SUMMARY of it all","hang_after":2}`, want: "aborted", abort: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, s, firstAnswer := branchWorld(t, tt.summary)
			leaf, mock := selected(s), mockOf(t, s)
			done := make(chan error, 1)
			go func() {
				_, err := s.Select(context.Background(), protocol.SelectParams{Ref: firstAnswer, Summarize: true})
				done <- err
			}()
			if tt.abort {
				waitRequests(t, mock, 3)
				s.Abort()
			}
			err := <-done
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "the session stays where it was") ||
				!strings.Contains(err.Error(), "without summarize") {
				t.Fatalf("Select = %v", err)
			}
			if n := len(branchSummaries(t, s)); n != 0 || selected(s) != leaf {
				t.Fatalf("%d branch summaries recorded; selected %s, want %s", n, selected(s), leaf)
			}
			if st := s.State(); st.Running {
				t.Fatal("the session stays busy after the failed summary")
			}
		})
	}
	t.Run("nothing left behind", func(t *testing.T) {
		_, s, _ := branchWorld(t)
		leaf, mock := selected(s), mockOf(t, s)
		res, err := s.Select(context.Background(), protocol.SelectParams{Ref: leaf, Summarize: true})
		if err != nil || res.Summary != nil || res.Entry != leaf {
			t.Fatalf("Select of the leaf itself = %+v, %v", res, err)
		}
		if n := len(mock.Requests()); n != 2 {
			t.Fatalf("%d requests; nothing left behind asks for no summary", n)
		}
	})
}

// TestSelectSummaryKeepsQueuedInput: while the branch summary is written
// the session is busy — a prompt is refused with ErrBusy — and steering
// input is queued; it starts a run from the new position when the summary
// is recorded.
func TestSelectSummaryKeepsQueuedInput(t *testing.T) {
	_, s, firstAnswer := branchWorld(t, mockText("SUMMARY", 10, 5, 0))
	g := &gated{Provider: mockOf(t, s), entered: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	s.bound.provider = g
	s.mu.Unlock()
	sub := s.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := s.Select(ctx, protocol.SelectParams{Ref: firstAnswer, Summarize: true})
		done <- err
	}()
	<-g.entered
	if err := s.Submit(ctx, promptText("a prompt")); !errors.Is(err, ErrBusy) {
		t.Fatalf("a prompt during the summary = %v, want ErrBusy", err)
	}
	if _, err := s.Select(ctx, protocol.SelectParams{Ref: firstAnswer}); !errors.Is(err, ErrBusy) {
		t.Fatalf("a move during the summary = %v, want ErrBusy", err)
	}
	if err := s.Submit(ctx, protocol.PromptParams{Text: "now", Delivery: protocol.DeliverSteer}); err != nil {
		t.Fatal(err)
	}
	close(g.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	untilSettled(t, ctx, sub)
	// The run's agent is made again from the new position (a new mock,
	// whose script starts over).
	if got := requestText(mockOf(t, s).Requests()[0]); got != "user:first assistant:first user:[Summary user:now" {
		t.Fatalf("the steered request carries %s", got)
	}
}

// TestSelectSummaryOntoToolCalls: a branch summary cannot go under a
// model reply that calls tools (their results belong right after it): the
// move is refused as a usage error naming the fix, nothing is recorded,
// the model is asked nothing, and the session stays where it was.
func TestSelectSummaryOntoToolCalls(t *testing.T) {
	w := newWorld(t)
	w.write("hello.txt", "hi\n")
	w.write("t.mock.json", mockScript(`{"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"hello.txt"}}]}`, mockText("done", 10, 1, 1), mockText("later", 10, 1, 1)))
	rt := w.open(map[string]string{"model": "mock/t.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "read it")
	runPrompt(t, s, "again")
	var call string
	for _, n := range s.Tree() {
		if n.Role == "assistant" {
			call = n.ID
			break
		}
	}
	leaf, asked := selected(s), len(mockOf(t, s).Requests())
	_, err = s.Select(context.Background(), protocol.SelectParams{Ref: call, Summarize: true})
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "calls tools") || !strings.Contains(err.Error(), "without summarize") {
		t.Fatalf("Select onto a tool-calling reply: %v", err)
	}
	if selected(s) != leaf || len(branchSummaries(t, s)) != 0 || len(mockOf(t, s).Requests()) != asked {
		t.Fatalf("the refused move changed the session (selected %s, was %s)", selected(s), leaf)
	}
}
