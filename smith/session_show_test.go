package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// TestSessionShowTurnsAndBranchSummary: session show ends each turn (a
// user input through its final answer) with its total — every response
// and the compaction its run made — and renders a branch summary with the
// branch it summarises and its cost, counted in the branch's total; dump
// renders the entry by its kind's name.
func TestSessionShowTurnsAndBranchSummary(t *testing.T) {
	e := newEnv(t)
	d, err := session.OpenDir(filepath.Join(e.home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := d.Create("branched")
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.New(f)
	if err != nil {
		t.Fatal(err)
	}
	usage := func(in, out, cost int64) model.Usage {
		z := model.Known(0)
		return model.Usage{Input: model.Known(in), Output: model.Known(out), CacheRead: z, CacheWrite: z, Reasoning: z, CostNanoUSD: model.Known(cost)}
	}
	answer := func(text string, u model.Usage, calls ...model.Content) model.AssistantMessage {
		stop := model.StopEnd
		if len(calls) > 0 {
			stop = model.StopToolUse
		}
		return model.AssistantMessage{Content: append([]model.Content{model.Text{Text: text}}, calls...), Model: "m", Stop: stop, Usage: u}
	}
	rec := func(msgs ...model.Message) {
		t.Helper()
		for _, m := range msgs {
			if err := st.Record(context.Background(), m); err != nil {
				t.Fatal(err)
			}
		}
	}
	sess := f.Session()
	rec(model.UserText("first question"), answer("first answer", usage(1000, 100, 1_000_000)))
	firstAnswer := sess.ID(sess.Selected())
	rec(model.UserText("second question"),
		answer("reading", usage(2000, 50, 2_000_000), model.ToolCall{ID: "c1", Name: "read", Arguments: []byte(`{"path":"a"}`)}),
		model.ToolResultMessage{CallID: "c1", Name: "read", Content: []model.Content{model.Text{Text: "A"}}},
		answer("second answer", usage(3000, 60, 3_000_000)))
	left := sess.ID(sess.Selected())
	if _, err := st.RecordBranchSummary(firstAnswer, session.BranchSummary{Summary: "## Done\nread a for the second question",
		From: left, Fork: firstAnswer, Summarized: 4, Model: "m", Usage: usage(900, 40, 500_000)}); err != nil {
		t.Fatal(err)
	}
	rec(model.UserText("third question"))
	third := sess.ID(sess.Selected())
	if _, err := st.RecordCompaction(session.Compaction{Summary: "S", FirstKept: third, Reason: "threshold", Usage: usage(800, 30, 400_000)}); err != nil {
		t.Fatal(err)
	}
	rec(answer("third answer", usage(500, 20, 600_000)))
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	show := e.mustRun("", "session", "show", "branched").stdout
	for _, w := range []string{
		"cost: 4 responses on this branch (compaction and branch summaries included) · 3,200 tokens in · 190 out · $0.0025",
		"assistant (m · 1,000 in · 100 out · $0.0010): first answer\n\n[turn total: 1 response · 1,000 tokens in · 100 out · $0.0010]\n\n[branch summary: 4 message(s) of the branch left at entry " + left.String() + " summarised · 900 in · 40 out · $0.0005; the model sees this summary here]\n  ## Done\n  read a for the second question\n\nuser: third question",
		"assistant (m · 500 in · 20 out · $0.0006): third answer\n\n[turn total: 2 responses · 1,300 tokens in · 50 out · $0.0010]\n",
	} {
		if !strings.Contains(show, w) {
			t.Errorf("show lacks %q:\n%s", w, show)
		}
	}
	if strings.Contains(show, "user: second question") {
		t.Errorf("show prints the branch left behind:\n%s", show)
	}

	dump := e.mustRun("", "session", "dump", "branched").stdout
	found := false
	for _, l := range strings.Split(strings.TrimSpace(dump), "\n") {
		var v struct {
			Kind    string         `json:"kind"`
			Pair    string         `json:"pair"`
			Content map[string]any `json:"content"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		if v.Kind == sessionfmt.KindBranchSummary.String() {
			found = v.Pair == left.String() && v.Content["summary"] == "## Done\nread a for the second question" && v.Content["fork"] == firstAnswer.String()
		}
	}
	if !found {
		t.Fatalf("dump lacks the branch_summary entry:\n%s", dump)
	}
}

// TestVCSText: session show describes each vcs operation on one line,
// naming the plugin call that asked for a restore and the entry a
// snapshot taken on request can be restored from.
func TestVCSText(t *testing.T) {
	tests := []struct {
		name string
		op   session.VCSOperation
		want string
	}{
		{name: "snapshot", op: session.VCSOperation{Op: session.VCSSnapshot, Snapshot: "0123456789abcdef", Turn: 2, Files: 7},
			want: "files after turn 2: snapshot 0123456789ab, 7 file(s) (smith session diff --turn 2 shows its changes)"},
		{name: "manual", op: session.VCSOperation{Op: session.VCSSnapshot, Phase: session.PhaseManual, Snapshot: "0123456789abcdef", Turn: 1, Files: 3, Note: "my edits"},
			want: `snapshot taken on request after turn 1: snapshot 0123456789ab, 3 file(s), "my edits" (restore --at 01JENTRY returns to it)`},
		{name: "undo", op: session.VCSOperation{Op: session.VCSUndo, Snapshot: "0123456789abcdef", Changed: []string{"a", "b"}, ChangedMore: 1},
			want: "undo: 3 file(s) restored to snapshot 0123456789ab"},
		{name: "forced-rewind", op: session.VCSOperation{Op: session.VCSRestore, Snapshot: "ab", Changed: []string{"a"}, Forced: true, Rewind: "01J"},
			want: "restore: 1 file(s) restored to snapshot ab (forced); the conversation went back to entry 01J"},
		{name: "by-plugin", op: session.VCSOperation{Op: session.VCSRedo, Snapshot: "ab", Changed: []string{"a"}, By: "plugin undoer, command:undo2"},
			want: "redo: 1 file(s) restored to snapshot ab (by plugin undoer, command:undo2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := vcsText("01JENTRY", tt.op); got != tt.want {
				t.Errorf("vcsText = %q\nwant       %q", got, tt.want)
			}
		})
	}
}
