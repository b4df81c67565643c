package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// e2eScript reads a file, fixes it and runs its test.
const e2eScript = `{"mock_script": 1, "responses": [
	{"text": "Let me look.", "tool_calls": [{"id": "call_read", "name": "read", "arguments": {"path": "greeting.txt"}}]},
	{"tool_calls": [{"id": "call_edit", "name": "edit", "arguments": {"path": "greeting.txt", "old_text": "wrld", "new_text": "world"}}]},
	{"tool_calls": [{"id": "call_test", "name": "bash", "arguments": {"command": "sh check.sh"}}]},
	{"text": "Fixed the typo; the check passes."}]}`

// TestAgentTurnThroughPlugin: the agent loop, the mock provider and the
// real tools plugin complete a tool-using turn (read, edit, test with
// bash) whose messages and effects are durable in a real session file.
func TestAgentTurnThroughPlugin(t *testing.T) {
	ctx := context.Background()
	g := shared(t)
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	for name, body := range map[string]string{
		"greeting.txt": "hello wrld\n",
		"check.sh":     "grep -q 'hello world' greeting.txt && echo PASS || { echo FAIL; exit 1; }\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := session.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f, info, err := dir.Create("e2e")
	if err != nil {
		t.Fatal(err)
	}
	store, err := session.New(f)
	if err != nil {
		t.Fatal(err)
	}
	j, _, err := effect.Open(ctx, store, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.Bind(Effects{Journal: j, Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	script, err := mockprovider.Parse([]byte(e2eScript))
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Config{Provider: mockprovider.New(script), Tools: b.Tools(), Recorder: store, Cwd: root})
	if err != nil {
		t.Fatal(err)
	}
	run, err := a.Start(ctx, model.UserText("Fix the typo in greeting.txt and run check.sh."))
	if err != nil {
		t.Fatal(err)
	}
	for range run.Events() {
	}
	if end := run.Wait(); end.Reason != protocol.EndCompleted {
		t.Fatalf("run ended %+v", end)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "greeting.txt")); string(got) != "hello world\n" {
		t.Errorf("greeting.txt = %q", got)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopen the session file: the conversation and every effect are there.
	f2, err := sessionfmt.Open(info.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	msgs, err := session.Messages(f2.Session())
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	results := map[string]model.ToolResultMessage{}
	for _, m := range msgs {
		roles = append(roles, string(m.Role()))
		if r, ok := m.(model.ToolResultMessage); ok {
			results[r.CallID] = r
		}
	}
	if got := strings.Join(roles, " "); got != "user assistant tool_result assistant tool_result assistant tool_result assistant" {
		t.Fatalf("roles = %s", got)
	}
	for id, want := range map[string]string{"call_read": "hello wrld\n", "call_edit": "+hello world", "call_test": "PASS\n[exit code 0]"} {
		r := results[id]
		if r.IsError || r.Mutation != model.MutationApplied || len(r.Content) != 1 || !strings.Contains(r.Content[0].(model.Text).Text, want) {
			t.Errorf("result of %s = %+v; want applied, containing %q", id, r, want)
		}
	}
	s2, err := session.New(f2)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := s2.Records(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, r := range recs {
		switch r := r.(type) {
		case effect.Intent:
			kinds = append(kinds, r.Kind+"<"+r.Parent)
		case effect.Completion:
			kinds = append(kinds, string(r.Mutation))
		}
	}
	want := "fs.read<call_read applied fs.edit<call_edit applied process.run<call_test applied"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("session effects = %s\nwant %s", got, want)
	}
}
