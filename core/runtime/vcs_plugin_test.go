package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// vcsOutcome is what core/plugin/testdata/vcsguest returns.
type vcsOutcome struct {
	Result   json.RawMessage `json:"result"`
	Fault    string          `json:"fault"`
	Case     string          `json:"case"`
	Conflict []string        `json:"conflict"`
}

// TestPluginVCS: a plugin granted vcs reads the session's snapshots from
// a tool call during a turn (diff) and is refused an undo and a snapshot
// there (busy);
// from a command it lists the turns, undoes, is refused a redo over a
// hand edit (conflict, naming the file) until forced, and is told an
// unknown target apart; each read is a journaled effect of its call, each
// restore a vcs_operation entry attributed to the plugin's command.
func TestPluginVCS(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.write("a.txt", "original\n")
	w.write("p.mock.json", mockScript(
		`{"tool_calls":[{"id":"w1","name":"write","arguments":{"path":"a.txt","content":"changed\n"}}]}`,
		`{"tool_calls":[{"id":"d1","name":"vcs","arguments":{"arguments":"diff"}},{"id":"u1","name":"vcs","arguments":{"arguments":"undo"}},{"id":"s1","name":"vcs","arguments":{"arguments":"snapshot mid-turn"}}]}`,
		mockText("done", 10, 1, 1)))
	guest := testGuest(t, "vcsguest", "vcsguest")
	guest.Grants = []string{"vcs"}
	rt := w.open(map[string]string{"model": "mock/p.mock.json"}, func(c *Config) { c.Plugins = append(c.Plugins, guest) })
	s, err := rt.NewSession(ctx, NewSessionOptions{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "change it")
	if e := agentEnd(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	got := map[string]vcsOutcome{}
	for _, ev := range evs {
		if e, ok := ev.(protocol.ToolExecutionEnd); ok && e.Name == "vcs" {
			var o vcsOutcome
			if err := json.Unmarshal([]byte(model.TextOf(e.Result.Content)), &o); err != nil {
				t.Fatalf("%s: %v: %s", e.CallID, err, model.TextOf(e.Result.Content))
			}
			got[e.CallID] = o
		}
	}
	if d := got["d1"]; d.Fault != "" || !strings.Contains(string(d.Result), `"Path":"a.txt"`) || !strings.Contains(string(d.Result), "+changed") {
		t.Errorf("diff during the turn: %+v (%s)", d, d.Result)
	}
	if u := got["u1"]; u.Case != "busy" || !strings.Contains(u.Fault, "only from a command") {
		t.Errorf("undo from a tool call: %+v", u)
	}
	if u := got["s1"]; u.Case != "busy" || !strings.Contains(u.Fault, "only from a command") {
		t.Errorf("snapshot from a tool call: %+v", u)
	}

	command := func(args string) vcsOutcome {
		t.Helper()
		res, err := s.RunCommand(ctx, protocol.RunCommandParams{Name: "vcs-op", Arguments: args})
		if err != nil {
			t.Fatalf("vcs-op %s: %v", args, err)
		}
		var o vcsOutcome
		if err := json.Unmarshal([]byte(model.TextOf(res.Content)), &o); err != nil {
			t.Fatalf("vcs-op %s: %v", args, err)
		}
		return o
	}
	read := func() string {
		b, err := os.ReadFile(filepath.Join(w.project, "a.txt"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if o := command("turns"); o.Fault != "" || strings.Count(string(o.Result), `"Turn"`) != 1 {
		t.Fatalf("turns: %+v (%s)", o, o.Result)
	}
	if o := command("undo"); o.Fault != "" || !strings.Contains(string(o.Result), `"Effect":"`) || read() != "original\n" {
		t.Fatalf("undo: %+v (%s); a.txt %q", o, o.Result, read())
	}
	w.write("a.txt", "by hand\n")
	if o := command("redo"); o.Case != "conflict" || len(o.Conflict) != 1 || o.Conflict[0] != "a.txt" || read() != "by hand\n" {
		t.Fatalf("redo over a hand edit: %+v; a.txt %q", o, read())
	}
	if o := command("redo force"); o.Fault != "" || read() != "changed\n" {
		t.Fatalf("forced redo: %+v; a.txt %q", o, read())
	}
	if o := command("restore turn:9"); o.Case != "invalid-target" || !strings.Contains(o.Fault, "turn:9") && !strings.Contains(o.Fault, `"9"`) {
		t.Fatalf("restore to a turn that is not: %+v", o)
	}
	if o := command("redo rewind"); o.Case != "invalid-target" {
		t.Fatalf("redo with rewind: %+v", o)
	}
	w.write("a.txt", "by hand again\n")
	if o := command("snapshot before the release"); o.Fault != "" || !strings.Contains(string(o.Result), `"Path":"a.txt"`) || !strings.Contains(string(o.Result), `"Entry":"`) {
		t.Fatalf("snapshot from a command: %+v (%s)", o, o.Result)
	}

	done, err := s.journal.Completed(ctx, "vcs.diff", "vcs.turns")
	if err != nil {
		t.Fatal(err)
	}
	parents := map[string]string{}
	for _, d := range done {
		parents[d.Intent.Kind] = d.Intent.Parent
	}
	if parents["vcs.diff"] != "d1" || parents["vcs.turns"] != "command:vcs-op" {
		t.Errorf("the reads' effects and their calls: %v", parents)
	}
	var causes []string
	s.store.View(func(sess *sessionfmt.Session) {
		for i := range sess.Len() {
			if sess.Kind(i) != sessionfmt.KindVCSOperation {
				continue
			}
			var op session.VCSOperation
			if sessionfmt.DecodeContent(sess.Entry(i).Content, &op) == nil && (op.Op != session.VCSSnapshot || op.Phase == session.PhaseManual) {
				causes = append(causes, op.Op+" by "+op.By)
			}
		}
	})
	if strings.Join(causes, "; ") != "undo by plugin vcsguest, command:vcs-op; redo by plugin vcsguest, command:vcs-op; snapshot by plugin vcsguest, command:vcs-op" {
		t.Errorf("vcs operations recorded: %v", causes)
	}
}
