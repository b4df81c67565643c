package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// TestStaleEditAcrossRuns: a session continued by a second `smith eval`
// process remembers what the first one read. The user changes a file
// between the runs; the second run's edit of it (based on the first run's
// read) is refused and recorded not_applied, and the file keeps the user's
// change; an edit of a file that did not change is applied; after reading
// the file again the model can edit it.
func TestStaleEditAcrossRuns(t *testing.T) {
	e := newEnv(t)
	for name, body := range map[string]string{"notes.txt": "status: draft\n", "same.txt": "status: draft\n"} {
		if err := os.WriteFile(filepath.Join(e.cwd, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := e.script("read.json", `{"mock_script":1,"responses":[
		{"tool_calls":[{"id":"call_read1","name":"read","arguments":{"path":"notes.txt"}},
		               {"id":"call_read2","name":"read","arguments":{"path":"same.txt"}}]},
		{"text":"Both are drafts."}]}`)
	edit := e.script("edit.json", `{"mock_script":1,"responses":[
		{"tool_calls":[{"id":"call_stale","name":"edit","arguments":{"path":"notes.txt","old_text":"status: draft","new_text":"status: final"}},
		               {"id":"call_same","name":"edit","arguments":{"path":"same.txt","old_text":"status: draft","new_text":"status: final"}}]},
		{"tool_calls":[{"id":"call_reread","name":"read","arguments":{"path":"notes.txt"}}]},
		{"tool_calls":[{"id":"call_retry","name":"edit","arguments":{"path":"notes.txt","old_text":"status: draft","new_text":"status: final"}}]},
		{"text":"Both are final now, and your note is kept."}]}`)

	e.mustRun("", "eval", "--model", read, "--session", "work", "Read notes.txt and same.txt.")
	user := "status: draft\nreviewer: the user\n"
	if err := os.WriteFile(filepath.Join(e.cwd, "notes.txt"), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.mustRun("", "eval", "--model", edit, "--session", "work", "Mark both final.")
	if !strings.Contains(r.stdout, "changed since it was last read; read it again and redo the edit against the current content") {
		t.Errorf("the second run's output lacks the refusal:\n%s", r.stdout)
	}

	_, msgs := load(t, e.sessionInfo("work").Path)
	checkPaired(t, msgs)
	results := map[string]model.ToolResultMessage{}
	for _, m := range msgs {
		if tr, ok := m.(model.ToolResultMessage); ok {
			results[tr.CallID] = tr
		}
	}
	text := func(r model.ToolResultMessage) string {
		var b strings.Builder
		for _, c := range r.Content {
			if tc, ok := c.(model.Text); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	if s := results["call_stale"]; !s.IsError || s.Mutation != model.MutationNotApplied || !strings.Contains(text(s), "changed since it was last read") {
		t.Errorf("stale edit result = %+v; want a not_applied refusal", s)
	}
	for _, id := range []string{"call_same", "call_retry"} {
		if s := results[id]; s.IsError || s.Mutation != model.MutationApplied {
			t.Errorf("%s result = %+v; want applied", id, s)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(e.cwd, "notes.txt")); string(got) != "status: final\nreviewer: the user\n" {
		t.Errorf("notes.txt = %q; want the user's line kept and the retried edit applied", got)
	}
	if got, _ := os.ReadFile(filepath.Join(e.cwd, "same.txt")); string(got) != "status: final\n" {
		t.Errorf("same.txt = %q", got)
	}

	// The refusal is a durable effect: an fs.edit completed not_applied.
	f, err := sessionfmt.Open(e.sessionInfo("work").Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	store, err := session.New(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := store.Records(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	var effects []string
	for _, rec := range recs {
		switch rec := rec.(type) {
		case effect.Intent:
			kinds[rec.ID] = rec.Kind + "<" + rec.Parent
		case effect.Completion:
			// The tools' effects, not the reads of instruction files.
			if strings.HasPrefix(kinds[rec.ID], "fs.") && strings.Contains(kinds[rec.ID], "<call_") {
				effects = append(effects, kinds[rec.ID]+" "+string(rec.Mutation))
			}
		}
	}
	want := "fs.read<call_read1 applied, fs.read<call_read2 applied, fs.edit<call_stale not_applied, fs.edit<call_same applied, fs.read<call_reread applied, fs.edit<call_retry applied"
	if got := strings.Join(effects, ", "); got != want {
		t.Errorf("file effects:\n%s\nwant\n%s", got, want)
	}
}
