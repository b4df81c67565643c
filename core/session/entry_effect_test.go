package session

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// TestEntryEffect: the effect entries of a session decode to the records
// the journal wrote, as Records reads them; other entries are refused.
func TestEntryEffect(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.session")
	f, err := sessionfmt.Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := New(f)
	if err := st.RecordMetadata(Metadata{Cwd: "/p"}); err != nil {
		t.Fatal(err)
	}
	j, _, err := effect.Open(context.Background(), st, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Run(context.Background(), effect.Intent{Kind: "process.run", Parent: "mcp:1", Input: []byte(`{"command":"false"}`)},
		func(context.Context) effect.Outcome {
			return effect.Outcome{Mutation: model.MutationApplied, Output: []byte("out"), Err: errors.New("exit 1")}
		}); err != nil {
		t.Fatal(err)
	}
	want, err := st.Records(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	sess, _, err := sessionfmt.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []effect.Record
	for i := range sess.Len() {
		r, err := EntryEffect(sess.Entry(i))
		if sess.Kind(i) == sessionfmt.KindReplayMetadata {
			if err == nil || !strings.Contains(err.Error(), "not an effect record") {
				t.Errorf("metadata entry: err = %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(got) != 2 || len(want) != 2 {
		t.Fatalf("records %+v, want %+v", got, want)
	}
	in, c := got[0].(effect.Intent), got[1].(effect.Completion)
	if in.ID != want[0].EffectID() || in.Parent != "mcp:1" || in.Kind != "process.run" || string(in.Input) != `{"command":"false"}` ||
		c.ID != in.ID || c.Mutation != model.MutationApplied || c.Error != want[1].(effect.Completion).Error || string(c.Output) != string(want[1].(effect.Completion).Output) {
		t.Errorf("decoded %+v %+v, want %+v", in, c, want)
	}
}
