package main

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/wit/handler"
	"github.com/smith-agent/smith/wit/types"
	"github.com/smith-agent/smith/wit/ui"
)

// A handler is plain Go: its decisions run natively, with the user faked.
func TestHandleEvent(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		answer  bool
		fault   error
		asked   bool
		denied  string // part of the reason; "" lets the call run
	}{
		{name: "other commands run", payload: `{"name":"bash","arguments":{"command":"git status"}}`},
		{name: "push approved", payload: `{"name":"bash","arguments":{"command":"git push origin main"}}`, answer: true, asked: true},
		{name: "push refused", payload: `{"name":"bash","arguments":{"command":"git push"}}`, asked: true, denied: "did not approve"},
		{name: "nobody to ask", payload: `{"name":"bash","arguments":{"command":"git push"}}`, fault: ui.UIFault{Case: ui.UIFaultNoUser},
			asked: true, denied: "could not be asked for (nobody can answer here)"},
		{name: "git's files", payload: `{"name":"write","arguments":{"path":"./.git/config","content":"x"}}`, denied: ".git/ are git's own"},
		{name: "other files", payload: `{"name":"edit","arguments":{"path":"src/git.go"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked, notified := false, ""
			ask = func(prompt string, _ ui.ConfirmOptions) (bool, error) {
				asked = true
				if !strings.HasPrefix(prompt, "Let the agent run `git push") {
					t.Errorf("asked %q", prompt)
				}
				return tt.answer, tt.fault
			}
			notify = func(m string) { notified = m }
			got, err := plugin{}.HandleEvent(handler.Event{Kind: types.EventKindToolExecutionStart, Payload: tt.payload}, handler.HandleOptions{DecisionRequired: true})
			if err != nil {
				t.Fatal(err)
			}
			if asked != tt.asked {
				t.Errorf("asked %v, want %v", asked, tt.asked)
			}
			switch {
			case tt.denied == "" && len(got) != 0:
				t.Fatalf("actions %+v, want none", got)
			case tt.denied != "" && (len(got) != 1 || got[0].Case != handler.ActionDenyCall || !strings.Contains(got[0].DenyCall, tt.denied)):
				t.Fatalf("actions %+v, want a denial saying %q", got, tt.denied)
			case tt.denied != "" && notified == "":
				t.Error("a refusal was not notified")
			}
		})
	}
	if _, err := (plugin{}).HandleEvent(handler.Event{Kind: types.EventKindToolExecutionStart, Payload: "{"}, handler.HandleOptions{}); err == nil {
		t.Error("a broken event was accepted")
	}
}
