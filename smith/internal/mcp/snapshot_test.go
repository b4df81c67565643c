package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smith-agent/smith/core/protocol"
)

// TestCallToolSnapshots (issue 19): a tool call that arrives over MCP
// and changes files is taken between two snapshots and recorded as a turn
// of the session's file history, as a model's turn is, so `smith session
// diff` and `undo` cover it; a call that changes nothing (a read, a
// command that writes nothing) records no turn.
func TestCallToolSnapshots(t *testing.T) {
	w := newWorld(t)
	cs, srv, _ := inProcess(t, w, "snapshots", nil)
	sess := srv.o.Session
	steps := []struct {
		name  string
		tool  string
		args  map[string]any
		turns int      // the turns with snapshots after the call
		diff  []string // the last turn's changes, "kind path"
	}{
		{name: "a read records no turn", tool: "read", args: map[string]any{"path": "hello.txt"}},
		{name: "a write is a turn", tool: "write", args: map[string]any{"path": "out.txt", "content": "x\n"}, turns: 1, diff: []string{"added out.txt"}},
		{name: "a command that writes nothing records no turn", tool: "bash", args: map[string]any{"command": "cat hello.txt"}, turns: 1, diff: []string{"added out.txt"}},
		{name: "a command that changes a file is a turn", tool: "bash", args: map[string]any{"command": "printf 'changed\\n' > hello.txt; rm out.txt"}, turns: 2,
			diff: []string{"deleted out.txt", "modified hello.txt"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			res, err := cs.CallTool(bounded(t), &sdk.CallToolParams{Name: st.tool, Arguments: st.args})
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %q", st.tool, err, textOf(res.Content))
			}
			d, err := sess.Diff(bounded(t), protocol.DiffParams{Turn: st.turns})
			if st.turns == 0 {
				if err == nil || !strings.Contains(err.Error(), "has no file snapshots") {
					t.Fatalf("diff after %s: %v, %+v; want no snapshots", st.name, err, d)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sess.Diff(bounded(t), protocol.DiffParams{Turn: st.turns + 1}); err == nil {
				t.Errorf("diff of turn %d succeeded; want %d turns only", st.turns+1, st.turns)
			}
			var got []string
			for _, f := range d.Files {
				got = append(got, f.Kind+" "+f.Path)
			}
			slices.Sort(got)
			if want := slices.Sorted(slices.Values(st.diff)); !slices.Equal(got, want) {
				t.Errorf("diff of turn %d (%s to %s) = %q, want %q", st.turns, d.From, d.To, got, want)
			}
		})
	}

	// Undo goes back over the MCP calls, one turn at a time.
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(w.project, rel))
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return string(b)
	}
	if _, err := sess.Undo(bounded(t), protocol.UndoParams{}); err != nil {
		t.Fatal(err)
	}
	if got := read("hello.txt") + read("out.txt"); got != "hello from the project\nx\n" {
		t.Errorf("after one undo the files hold %q", got)
	}
	if _, err := sess.Undo(bounded(t), protocol.UndoParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(w.project, "out.txt")); !os.IsNotExist(err) {
		t.Errorf("after two undos out.txt is still there: %v", err)
	}
	if got := read("hello.txt"); got != "hello from the project\n" {
		t.Errorf("after two undos hello.txt holds %q", got)
	}
}
