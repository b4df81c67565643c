package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSessionCommands: ls lists, show prints the conversation, dump writes
// one JSON object per frame, and fork copies the history up to an entry
// into a new session.
func TestSessionCommands(t *testing.T) {
	e := newEnv(t)
	e.demo()
	e.mustRun("", "eval", "--model", "mock", "--session", "demo", "fix the bug")

	ls := e.mustRun("", "session", "ls")
	if !strings.Contains(ls.stdout, "demo") || !strings.HasPrefix(ls.stdout, "ID") {
		t.Fatalf("ls:\n%s", ls.stdout)
	}

	show := e.mustRun("", "session", "show", "demo")
	for _, w := range []string{"entries: 28 (messages 8, effect intents 8, effect completions 8)", "directory: ", "model: mock", "user: fix the bug",
		`→ edit {"path": "greet.sh"`, "tool_result bash [call_test] (applied)", "PASS"} {
		if !strings.Contains(show.stdout, w) {
			t.Errorf("show lacks %q:\n%s", w, show.stdout)
		}
	}

	dump := e.mustRun("", "session", "dump", "demo")
	lines := strings.Split(strings.TrimSuffix(dump.stdout, "\n"), "\n")
	var entryIDs []string
	for i, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("dump line %d is not JSON: %v: %s", i+1, err, l)
		}
		if id, ok := v["id"].(string); ok {
			entryIDs = append(entryIDs, id)
		}
	}
	if len(entryIDs) != 28 {
		t.Fatalf("dump has %d entries, want 28 (metadata, model, 8 messages, 8 effects, 2 snapshots):\n%s", len(entryIDs), dump.stdout)
	}

	fork := e.mustRun("", "session", "fork", "demo", "--name", "whole")
	if !strings.Contains(fork.stdout, "into whole (") {
		t.Fatalf("fork: %s", fork.stdout)
	}
	if _, msgs := load(t, e.sessionInfo("whole").Path); len(msgs) != 8 {
		t.Fatalf("whole fork has %d messages, want 8", len(msgs))
	}
	// Fork at the eleventh entry (the first assistant message, after the
	// metadata, the model, three instruction reads, the intent of the
	// turn's first snapshot and the prompt): the prompt and that answer
	// only, with the snapshot's completion (an intent's completion goes
	// with it).
	e.mustRun("", "session", "fork", "demo", "--at", entryIDs[10], "--name", "early")
	kinds, msgs := load(t, e.sessionInfo("early").Path)
	if len(msgs) != 2 || len(kinds) != 12 {
		t.Fatalf("early fork: kinds %v, %d messages", kinds, len(msgs))
	}
	// The source is unchanged, and the fork is listed.
	if _, msgs := load(t, e.sessionInfo("demo").Path); len(msgs) != 8 {
		t.Fatalf("source has %d messages after forking", len(msgs))
	}
	if ls := e.mustRun("", "session", "ls"); !strings.Contains(ls.stdout, "early") || !strings.Contains(ls.stdout, "whole") {
		t.Fatalf("ls after fork:\n%s", ls.stdout)
	}
	// An entry can be labelled; the tree shows it.
	e.mustRun("", "session", "label", "demo", entryIDs[10], "first answer")
	if tree := e.mustRun("", "session", "tree", "demo").stdout; !strings.Contains(tree, entryIDs[10]+" assistant: I'll read the script under test first. [first answer]") ||
		!strings.Contains(tree, "replay_metadata") || !strings.Contains(tree, "model_change: mock") {
		t.Fatalf("tree:\n%s", tree)
	}
	// A session file path works as a reference too.
	if r := e.mustRun("", "session", "show", e.sessionInfo("early").Path); !strings.Contains(r.stdout, "user: fix the bug") {
		t.Fatalf("show by path:\n%s", r.stdout)
	}
}
