package plugin

import (
	"context"
	"errors"
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

// staleRun is one process's share of a session: it reopens the session
// file, recovers its journal, binds the tools over it, and runs one turn of
// the mock script. It returns the turn's tool results by call id.
func staleRun(t *testing.T, g *Generation, path, root, script, prompt string) map[string]model.ToolResultMessage {
	t.Helper()
	ctx := context.Background()
	f, err := sessionfmt.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
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
	s, err := mockprovider.Parse([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	history, err := session.Messages(f.Session())
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Config{Provider: mockprovider.New(s), Tools: b.Tools(), Recorder: store, Cwd: root, History: history})
	if err != nil {
		t.Fatal(err)
	}
	run, err := a.Start(ctx, model.UserText(prompt))
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]model.ToolResultMessage{}
	for ev := range run.Events() {
		if m, ok := ev.(protocol.MessageEnd); ok {
			if r, ok := m.Message.(model.ToolResultMessage); ok {
				results[r.CallID] = r
			}
		}
	}
	if end := run.Wait(); end.Reason != protocol.EndCompleted {
		t.Fatalf("run ended %+v", end)
	}
	return results
}

func resultText(r model.ToolResultMessage) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(model.Text); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestStaleEditAcrossProcesses: the tools of a new binding over a resumed
// session (a new process) remember what the earlier binding read: an edit
// of a file the user changed in between is refused, changes nothing and is
// recorded not_applied; an edit of an unchanged file is applied.
func TestStaleEditAcrossProcesses(t *testing.T) {
	g := shared(t)
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	for name, body := range map[string]string{"changed.txt": "version = 1\n", "same.txt": "version = 1\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := session.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f, info, err := dir.Create("stale")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	first := staleRun(t, g, info.Path, root, `{"mock_script": 1, "responses": [
		{"tool_calls": [{"id": "call_r1", "name": "read", "arguments": {"path": "changed.txt"}},
		                {"id": "call_r2", "name": "read", "arguments": {"path": "same.txt"}}]},
		{"text": "Both files are at version 1."}]}`, "Read the files.")
	for _, id := range []string{"call_r1", "call_r2"} {
		if r := first[id]; r.IsError || resultText(r) != "version = 1\n" {
			t.Fatalf("%s = %+v", id, r)
		}
	}

	// The user edits one file while no process holds the session.
	user := "version = 1\n# the user's note\n"
	if err := os.WriteFile(filepath.Join(root, "changed.txt"), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}

	second := staleRun(t, g, info.Path, root, `{"mock_script": 1, "responses": [
		{"tool_calls": [{"id": "call_e1", "name": "edit", "arguments": {"path": "changed.txt", "old_text": "version = 1", "new_text": "version = 2"}},
		                {"id": "call_e2", "name": "edit", "arguments": {"path": "same.txt", "old_text": "version = 1", "new_text": "version = 2"}}]},
		{"text": "Done."}]}`, "Bump both versions.")
	if r := second["call_e1"]; !r.IsError || r.Mutation != model.MutationNotApplied || !strings.Contains(resultText(r), "changed since it was last read; read it again and redo the edit against the current content") {
		t.Errorf("stale edit result = %+v (%s); want a not_applied refusal", r, resultText(r))
	}
	if got, _ := os.ReadFile(filepath.Join(root, "changed.txt")); string(got) != user {
		t.Errorf("changed.txt = %q; the user's change must stay", got)
	}
	if r := second["call_e2"]; r.IsError || r.Mutation != model.MutationApplied {
		t.Errorf("edit of the unchanged file = %+v (%s)", r, resultText(r))
	}
	if got, _ := os.ReadFile(filepath.Join(root, "same.txt")); string(got) != "version = 2\n" {
		t.Errorf("same.txt = %q", got)
	}

	// The session records the refusal as a not_applied fs.edit.
	f2, err := sessionfmt.Open(info.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	store, err := session.New(f2)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := store.Records(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	parent := map[string]string{}
	var got []string
	for _, r := range recs {
		switch r := r.(type) {
		case effect.Intent:
			parent[r.ID] = r.Kind + "<" + r.Parent
		case effect.Completion:
			got = append(got, parent[r.ID]+" "+string(r.Mutation))
			if strings.HasPrefix(parent[r.ID], "fs.edit<call_e1") && !strings.Contains(r.Error, "changed since it was last read") {
				t.Errorf("refused edit's completion error = %q", r.Error)
			}
		}
	}
	for _, want := range []string{"fs.read<call_r1 applied", "fs.read<call_r2 applied", "fs.edit<call_e1 not_applied", "fs.edit<call_e2 applied"} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("session effects lack %q:\n%s", want, strings.Join(got, "\n"))
		}
	}
}

// forgetfulStore recovers but then cannot read its records again.
type forgetfulStore struct {
	effect.MemStore
	reads int
}

func (s *forgetfulStore) Records(ctx context.Context) ([]effect.Record, error) {
	if s.reads++; s.reads > 1 {
		return nil, errors.New("session file went away")
	}
	return s.MemStore.Records(ctx)
}

// TestBindFailsWithoutTheJournal: tools are not bound when the file
// effects to recall cannot be read.
func TestBindFailsWithoutTheJournal(t *testing.T) {
	g := shared(t)
	j, _, err := effect.Open(context.Background(), &forgetfulStore{}, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.Bind(Effects{Journal: j, Roots: []string{t.TempDir()}})
	if err == nil {
		b.Close()
		t.Fatal("bound without the journal's records")
	}
	for _, want := range []string{"plugin: hostops: recall the files read and written earlier in the session", "session file went away", "reopen the session"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v; want %q", err, want)
		}
	}
}
