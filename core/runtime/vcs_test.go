package runtime

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// files reads every file, symlink and mode below root, byte for byte.
func files(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			out[rel] = "-> " + target
			return err
		}
		b, err := os.ReadFile(p)
		out[rel] = fi.Mode().Perm().String() + " " + string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// turnsScript: turn 1 changes the tree with bash (binary content, a
// symlink, a deletion, an exec bit, a new file in a new directory); turn 2
// writes a file with the write tool; turn 3 only reads.
const turnsScript = `{"mock_script":1,"responses":[
	{"tool_calls":[{"id":"b1","name":"bash","arguments":{"command":"printf 'A\\000\\001\\377' > bin.dat; echo changed > a.txt; rm gone.txt; ln -sfn b.txt link; chmod +x run.sh; mkdir -p sub && echo new > sub/new.txt"}}]},
	{"text":"turn 1 done"},
	{"tool_calls":[{"id":"w1","name":"write","arguments":{"path":"b.txt","content":"written by turn 2\n"}}]},
	{"text":"turn 2 done"},
	{"tool_calls":[{"id":"r1","name":"read","arguments":{"path":"a.txt"}}]},
	{"text":"turn 3 done"}]}`

// TestUndoRedoRestore: the files a session's turns changed — by bash and
// by the write tool — undo, redo and restore byte for byte (binary
// content, symlinks, deletions, modes); each operation is a durable
// effect with a vcs_operation entry; a tree changed since the last
// snapshot is refused, naming the file, unless forced; a rewind moves the
// conversation back with the files.
func TestUndoRedoRestore(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.write("a.txt", "original\n")
	w.write("gone.txt", "to be deleted\n")
	w.write("bin.dat", "\x00\x01\x02")
	w.write("run.sh", "echo run\n")
	w.write("b.txt", "b\n")
	if err := os.Symlink("a.txt", filepath.Join(w.project, "link")); err != nil {
		t.Fatal(err)
	}
	w.write("turns.mock.json", turnsScript)
	rt := w.open(map[string]string{"model": "mock/turns.mock.json"}, nil)
	s, err := rt.NewSession(ctx, NewSessionOptions{Name: "undo"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(ctx, protocol.UndoParams{}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "no file snapshots") {
		t.Fatalf("undo before any turn: %v", err)
	}
	s0 := files(t, w.project)
	runPrompt(t, s, "one")
	s1 := files(t, w.project)
	runPrompt(t, s, "two")
	s2 := files(t, w.project)
	runPrompt(t, s, "three")
	if maps.Equal(s0, s1) || maps.Equal(s1, s2) || !maps.Equal(s2, files(t, w.project)) {
		t.Fatalf("the turns did not change the tree as scripted:\n%v\n%v\n%v", s0, s1, s2)
	}

	turns, err := s.Turns(ctx)
	if err != nil || len(turns) != 3 {
		t.Fatalf("Turns = %+v, %v", turns, err)
	}
	if turns[0].Changed != 6 || turns[1].Changed != 1 || turns[2].Changed != 0 {
		t.Errorf("changed per turn = %d %d %d, want 6 1 0", turns[0].Changed, turns[1].Changed, turns[2].Changed)
	}
	d, err := s.Diff(ctx, protocol.DiffParams{Turn: 2})
	if err != nil || len(d.Files) != 1 || d.Files[0].Path != "b.txt" || !strings.Contains(d.Files[0].Patch, "+written by turn 2") {
		t.Fatalf("Diff turn 2 = %+v, %v", d, err)
	}

	steps := []struct {
		name string
		do   func() (protocol.VCSResult, error)
		want map[string]string
	}{
		{"undo turn 2", func() (protocol.VCSResult, error) { return s.Undo(ctx, protocol.UndoParams{}) }, s1},
		{"undo turn 1", func() (protocol.VCSResult, error) { return s.Undo(ctx, protocol.UndoParams{}) }, s0},
		{"redo turn 1", func() (protocol.VCSResult, error) { return s.Redo(ctx, protocol.RedoParams{}) }, s1},
		{"redo turn 2", func() (protocol.VCSResult, error) { return s.Redo(ctx, protocol.RedoParams{}) }, s2},
		{"restore turn 1's start", func() (protocol.VCSResult, error) { return s.Restore(ctx, protocol.RestoreParams{At: "turn:1"}) }, s0},
		{"restore turn 3's start", func() (protocol.VCSResult, error) { return s.Restore(ctx, protocol.RestoreParams{At: "turn:3"}) }, s2},
	}
	for _, st := range steps {
		res, err := st.do()
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := files(t, w.project); !maps.Equal(got, st.want) {
			t.Fatalf("%s: tree\n%v\nwant\n%v", st.name, got, st.want)
		}
		if res.Effect == "" || len(res.Changed) == 0 {
			t.Fatalf("%s: result %+v", st.name, res)
		}
	}
	if _, err := s.Redo(ctx, protocol.RedoParams{}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "nothing to redo") {
		t.Fatalf("redo at the newest state: %v", err)
	}

	// A change made since the last snapshot is not overwritten silently.
	w.write("b.txt", "edited by hand\n")
	if _, err := s.Undo(ctx, protocol.UndoParams{}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "b.txt") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("undo over a hand edit: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(w.project, "b.txt")); string(b) != "edited by hand\n" {
		t.Fatalf("a refused undo changed b.txt to %q", b)
	}
	if _, err := s.Undo(ctx, protocol.UndoParams{Force: true}); err != nil {
		t.Fatalf("forced undo: %v", err)
	}
	if got := files(t, w.project); !maps.Equal(got, s1) {
		t.Fatalf("forced undo: tree\n%v\nwant\n%v", got, s1)
	}

	// Every operation is recorded: its effect completed and a
	// vcs_operation entry names it.
	var ops []session.VCSEntry
	s.store.View(func(sess *sessionfmt.Session) { ops, err = session.VCSOperations(sess, sess.Selected()) })
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, op := range ops {
		kinds = append(kinds, op.Op+"/"+op.Phase)
	}
	want := []string{"snapshot/start", "snapshot/end", "snapshot/start", "snapshot/end", "snapshot/start", "snapshot/end",
		"undo/", "undo/", "redo/", "redo/", "restore/", "restore/", "undo/"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("vcs_operation entries %v, want %v", kinds, want)
	}
	if !ops[len(ops)-1].Forced {
		t.Error("the forced undo is not recorded as forced")
	}
	recs, err := s.store.Records(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kind := map[string]string{}
	applied := map[string]int{}
	for _, r := range recs {
		switch r := r.(type) {
		case effect.Intent:
			kind[r.ID] = r.Kind
		case effect.Completion:
			if strings.HasPrefix(kind[r.ID], "vcs.") && r.Mutation == model.MutationApplied {
				applied[kind[r.ID]]++
			}
		}
	}
	if applied["vcs.snapshot"] != 6 || applied["vcs.undo"] != 3 || applied["vcs.redo"] != 2 || applied["vcs.restore"] != 2 {
		t.Errorf("applied vcs effects %v, want 6 snapshots, 3 undos, 2 redos, 2 restores", applied)
	}
	for _, op := range ops {
		if s.file.Session().Kind(s.file.Session().Index(op.ID)) != sessionfmt.KindVCSOperation || op.Worktree != w.project {
			t.Errorf("entry %+v", op)
		}
	}
}

// TestUndoRewindsTheConversation: an undo with Rewind moves the
// conversation to before the undone turn, so the next prompt branches
// there and the model sees only the earlier turns.
func TestUndoRewindsTheConversation(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.write("a.txt", "original\n")
	w.write("run.sh", "")
	w.write("gone.txt", "")
	w.write("b.txt", "b\n")
	w.write("bin.dat", "")
	w.write("turns.mock.json", turnsScript)
	rt := w.open(map[string]string{"model": "mock/turns.mock.json"}, nil)
	s, _ := rt.NewSession(ctx, NewSessionOptions{Name: "rewind"})
	runPrompt(t, s, "one")
	s1 := files(t, w.project)
	runPrompt(t, s, "two")
	res, err := s.Undo(ctx, protocol.UndoParams{Rewind: true})
	if err != nil || res.Rewound == "" {
		t.Fatalf("undo with rewind: %+v, %v", res, err)
	}
	if got := files(t, w.project); !maps.Equal(got, s1) {
		t.Fatalf("tree after undo\n%v\nwant\n%v", got, s1)
	}
	h, err := s.History()
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, m := range h {
		if u, ok := m.(model.UserMessage); ok {
			users = append(users, u.Content[0].(model.Text).Text)
		}
	}
	if !slices.Equal(users, []string{"one"}) {
		t.Fatalf("user messages after the rewind: %v, want [one]", users)
	}
}
