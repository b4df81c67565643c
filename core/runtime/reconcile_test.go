package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/protocol"
)

// TestReconcileUnknownEffects: effects left without a completion by an
// ended process recover as unknown; UnknownEffects shows each with what
// can be compared (a write's content against the file, the files against
// the snapshot before a command), Reconcile records the user's decision
// as an effect.reconcile effect, and a decided effect is not listed or
// decided again.
func TestReconcileUnknownEffects(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.write("turns.mock.json", turnsScript)
	for _, f := range []string{"a.txt", "gone.txt", "b.txt", "bin.dat", "run.sh"} {
		w.write(f, "x\n")
	}
	written := w.write("written.txt", "the new text\n")
	rt := w.open(map[string]string{"model": "mock/turns.mock.json"}, nil)
	s, err := rt.NewSession(ctx, NewSessionOptions{Name: "rec"})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "one") // a turn with snapshots
	w.write("made.txt", "what the interrupted command made\n")
	leaf := s.Tree()[len(s.Tree())-1].ID
	begin := func(kind string, input any) string {
		b, _ := json.Marshal(input)
		e, err := s.journal.Begin(ctx, effect.Intent{Kind: kind, Parent: leaf, Input: b})
		if err != nil {
			t.Fatal(err)
		}
		return e.Intent().ID
	}
	write := begin("fs.write", map[string]any{"path": "written.txt", "abs_path": written, "sha256": digestOf([]byte("the new text\n")), "bytes": 13})
	missing := begin("fs.write", map[string]any{"path": "never.txt", "abs_path": filepath.Join(w.project, "never.txt"), "sha256": digestOf([]byte("z"))})
	run := begin("process.run", map[string]any{"command": "make"})
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}

	s, err = rt.OpenSession(ctx, "rec")
	if err != nil {
		t.Fatal(err)
	}
	us, err := s.UnknownEffects(ctx)
	if err != nil || len(us) != 3 {
		t.Fatalf("UnknownEffects = %+v, %v; want the three interrupted effects", us, err)
	}
	want := []struct {
		id, suggest, evidence string
	}{
		{write, "applied", "holds exactly the content"},
		{missing, "not_applied", "cannot be read"},
		{run, "", "file(s) differ from the snapshot taken before it"},
	}
	for i, wt := range want {
		if us[i].Effect != wt.id || us[i].Suggest != wt.suggest || !strings.Contains(us[i].Evidence, wt.evidence) || !strings.Contains(us[i].Error, "no completion was recorded") {
			t.Errorf("unknown effect %d = %+v; want %s suggesting %q with evidence %q", i, us[i], wt.id, wt.suggest, wt.evidence)
		}
	}
	if _, err := s.Reconcile(ctx, protocol.ReconcileParams{Effect: write, Decision: "maybe"}); !errors.Is(err, ErrUsage) {
		t.Fatalf("a bad decision: %v", err)
	}
	if _, err := s.Reconcile(ctx, protocol.ReconcileParams{Effect: write[:4], Decision: "applied"}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), run) {
		t.Fatalf("an ambiguous prefix: %v; want a usage error listing the effects", err)
	}
	res, err := s.Reconcile(ctx, protocol.ReconcileParams{Effect: strings.ToLower(write), Decision: "applied", Note: "checked by hand"})
	if err != nil || res.Effect != write || res.Record == "" {
		t.Fatalf("Reconcile = %+v, %v", res, err)
	}
	if _, err := s.Reconcile(ctx, protocol.ReconcileParams{Effect: write, Decision: "applied"}); !errors.Is(err, ErrUsage) {
		t.Fatalf("reconciling twice: %v", err)
	}
	us, _ = s.UnknownEffects(ctx)
	if len(us) != 2 || us[0].Effect != missing {
		t.Fatalf("after one decision: %+v", us)
	}
	recs, _ := s.store.Records(ctx)
	found := false
	for _, r := range recs {
		if in, ok := r.(effect.Intent); ok && in.Kind == kindReconcile && strings.Contains(string(in.Input), `"decision":"applied"`) && strings.Contains(string(in.Input), write) {
			found = true
		}
	}
	if !found {
		t.Error("no effect.reconcile record names the decision")
	}
}
