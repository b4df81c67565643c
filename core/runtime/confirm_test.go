package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// TestAskConfirmation: in permission mode ask, a call that may change
// something is put to the person as a confirmation_request; the answer
// (Session.Answer) decides it, an abort dismisses it, and where nobody
// answers (Config.Answers false) the request ends at once as no_user and
// the call is refused. Every request is followed by its
// confirmation_end.
func TestAskConfirmation(t *testing.T) {
	tests := []struct {
		name    string
		answers bool
		answer  func(s *Session, q protocol.ConfirmationRequest)
		ran     bool
		outcome protocol.ConfirmationOutcome
		why     string
	}{
		{name: "yes", answers: true, answer: func(s *Session, q protocol.ConfirmationRequest) { _ = s.Answer(q.ID, true) },
			ran: true, outcome: protocol.ConfirmAnswered},
		{name: "no", answers: true, answer: func(s *Session, q protocol.ConfirmationRequest) { _ = s.Answer(q.ID, false) },
			outcome: protocol.ConfirmAnswered, why: "the user did not approve `bash` `echo x > out.txt`"},
		{name: "abort", answers: true, answer: func(s *Session, _ protocol.ConfirmationRequest) { s.Abort() },
			outcome: protocol.ConfirmDismissed},
		{name: "nobody answers here", outcome: protocol.ConfirmNoUser, why: "no one can be asked here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.write("p.mock.json", mockScript(`{"tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"echo x > out.txt"}}]}`, mockText("done", 10, 1, 1)))
			rt := w.open(map[string]string{"model": "mock/p.mock.json", "permission-mode": "ask"}, func(c *Config) { c.Answers = tt.answers })
			s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "p"})
			if err != nil {
				t.Fatal(err)
			}
			sub := s.Subscribe()
			defer sub.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := s.Submit(ctx, protocol.PromptParams{Text: "go"}); err != nil {
				t.Fatal(err)
			}
			var (
				evs  []protocol.Event
				req  protocol.ConfirmationRequest
				end  protocol.ConfirmationEnd
				ends int
			)
			for {
				ev, err := sub.Next(ctx)
				if err != nil {
					t.Fatalf("after %d events: %v", len(evs), err)
				}
				evs = append(evs, ev)
				switch e := ev.(type) {
				case protocol.ConfirmationRequest:
					req = e
					if tt.answers {
						if got := s.State().Confirmations; len(got) != 1 || got[0].ID != e.ID || got[0].Seq.N != e.Seq.N {
							t.Errorf("waiting confirmations %+v, want %+v", got, e)
						}
					}
					if tt.answer != nil {
						tt.answer(s, e)
					}
				case protocol.ConfirmationEnd:
					end, ends = e, ends+1
				}
				if _, ok := ev.(protocol.Settled); ok {
					break
				}
			}
			if req.ID == "" || req.Plugin != "permissions" || req.CallID != "handler:tool_execution_start" ||
				!strings.HasPrefix(req.Prompt, "Run `bash` `echo x > out.txt`? (permission mode ask") || req.TimeoutMillis != (10*time.Minute).Milliseconds() {
				t.Fatalf("confirmation_request %+v", req)
			}
			if ends != 1 || end.ID != req.ID || end.Outcome != tt.outcome || end.Answer != tt.ran || end.Seq.N <= req.Seq.N {
				t.Fatalf("%d confirmation_end, last %+v; want one, %s, after %+v", ends, end, tt.outcome, req)
			}
			if got := s.Confirmations(); len(got) != 0 {
				t.Fatalf("still waiting: %+v", got)
			}
			if err := s.Answer(req.ID, true); err == nil || !strings.Contains(err.Error(), "no confirmation \""+req.ID+"\" is waiting") {
				t.Fatalf("a late answer: %v", err)
			}
			_, statErr := os.Stat(filepath.Join(w.project, "out.txt"))
			if tt.ran != (statErr == nil) {
				t.Fatalf("ran %v, the file: %v", tt.ran, statErr)
			}
			if tt.why != "" {
				res := toolEnd(t, evs)
				if text := model.TextOf(res.Content); !res.IsError || res.Mutation != model.MutationNotApplied || !strings.Contains(text, tt.why) {
					t.Fatalf("result %q, want a refusal saying %q", text, tt.why)
				}
			}
		})
	}
}
