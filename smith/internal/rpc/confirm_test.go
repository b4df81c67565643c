package rpc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/protocol"
)

// TestConfirm: with --confirmations (runtime.Config.Answers) a plugin's
// confirmation_request waits for the client; confirm is served while a
// wait holds the ordered lane, the call runs, and a second answer is a
// usage error. Without the flag, confirm says how to turn it on.
func TestConfirm(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w := newWorld(t)
	w.Flags, w.Answers = map[string]string{"permission-mode": "ask"}, true
	m := w.Script(`{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"echo hi > out.txt"}}]},{"text":"done"}]}`)
	c := servePipes(t, w.Open(m, true), nil).client()
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: "write it"}); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() {
		r, err := c.Wait(ctx, 0)
		if err == nil && !r.Settled {
			err = errors.New("the wait ended unsettled")
		}
		waited <- err
	}()
	var req protocol.ConfirmationRequest
	for req.ID == "" {
		select {
		case ev := <-c.Events():
			if r, ok := ev.(protocol.ConfirmationRequest); ok {
				req = r
			}
		case <-ctx.Done():
			t.Fatal("no confirmation_request within a minute")
		}
	}
	if req.Plugin != "permissions" || !strings.Contains(req.Prompt, "echo hi > out.txt") {
		t.Fatalf("confirmation_request %+v", req)
	}
	if err := c.Confirm(ctx, req.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(w.Project, "out.txt")); err != nil {
		t.Fatalf("the approved call did not run: %v", err)
	}
	if err := c.Confirm(ctx, req.ID, true); err == nil || !strings.Contains(err.Error(), "is waiting for an answer") {
		t.Fatalf("a second answer: %v", err)
	}

	w2 := newWorld(t)
	c2 := servePipes(t, w2.Open(w2.Script(textScript("hi")), true), nil).client()
	if _, err := c2.Prompt(ctx, protocol.PromptParams{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := c2.Confirm(ctx, "q1", true); err == nil || !strings.Contains(err.Error(), "--confirmations") {
		t.Fatalf("confirm without --confirmations: %v", err)
	}
}
