package effect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

func open(t *testing.T, s Store) *Journal {
	t.Helper()
	j, rec, err := Open(context.Background(), s, Options{MaxInputBytes: 64, MaxOutputBytes: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec) != 0 {
		t.Fatalf("unexpected recovery: %v", rec)
	}
	return j
}

func TestIntentIsDurableBeforeTheEffectRuns(t *testing.T) {
	s := &MemStore{}
	j := open(t, s)
	var seen []Record
	c, err := j.Run(context.Background(), Intent{Kind: "fs.write", Parent: "call_1", Generation: 3, Input: json.RawMessage(`{ "b": 1, "a": [true] }`)},
		func(ctx context.Context) Outcome {
			seen, _ = s.Records(ctx)
			return Outcome{Output: []byte("ok")}
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 {
		t.Fatalf("records while running = %v; want the intent alone", seen)
	}
	in := seen[0].(Intent)
	if in.ID == "" || in.Parent != "call_1" || in.Generation != 3 || string(in.Input) != `{"a":[true],"b":1}` {
		t.Fatalf("intent = %+v", in)
	}
	if c.ID != in.ID || c.Mutation != model.MutationApplied || string(c.Output) != "ok" {
		t.Fatalf("completion = %+v", c)
	}
	all, _ := s.Records(context.Background())
	if len(all) != 2 || all[1].(Completion).ID != in.ID {
		t.Fatalf("records = %v", all)
	}
	if len(j.Running()) != 0 {
		t.Fatalf("still running: %v", j.Running())
	}
}

func TestIntentRecordFailurePreventsExecution(t *testing.T) {
	s := &MemStore{Fail: func(r Record) error {
		if _, ok := r.(Intent); ok {
			return errors.New("disk full")
		}
		return nil
	}}
	j := open(t, s)
	ran := false
	c, err := j.Run(context.Background(), Intent{Kind: "fs.write"}, func(context.Context) Outcome {
		ran = true
		return Outcome{}
	})
	if ran {
		t.Fatal("the effect ran although its intent was not recorded")
	}
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), "the effect was not run") {
		t.Fatalf("err = %v", err)
	}
	if c.Mutation != model.MutationNotApplied {
		t.Fatalf("mutation = %s", c.Mutation)
	}
	if len(j.Running()) != 0 {
		t.Fatal("failed intent left running")
	}
}

func TestCompletionStates(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		out     Outcome
		want    model.Mutation
		wantErr string
		trunc   bool
	}{
		{"success defaults to applied", Outcome{Output: []byte("x")}, model.MutationApplied, "", false},
		{"failure without state is unknown", Outcome{Err: boom}, model.MutationUnknown, "boom", false},
		{"explicit not applied", Outcome{Mutation: model.MutationNotApplied, Err: boom}, model.MutationNotApplied, "boom", false},
		{"explicit unknown", Outcome{Mutation: model.MutationUnknown}, model.MutationUnknown, "", false},
		{"invalid state becomes unknown", Outcome{Mutation: "half"}, model.MutationUnknown, `invalid mutation state "half"`, false},
		{"output bounded", Outcome{Output: []byte("0123456789")}, model.MutationApplied, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := open(t, &MemStore{})
			c, err := j.Run(context.Background(), Intent{Kind: "k"}, func(context.Context) Outcome { return tt.out })
			if err != nil {
				t.Fatal(err)
			}
			if c.Mutation != tt.want || !strings.Contains(c.Error, tt.wantErr) || c.OutputTruncated != tt.trunc {
				t.Fatalf("completion = %+v", c)
			}
			if tt.trunc && string(c.Output) != "01234567" {
				t.Fatalf("output = %q", c.Output)
			}
		})
	}
}

func TestIntentValidation(t *testing.T) {
	tests := []struct {
		name string
		in   Intent
		want string
	}{
		{"no kind", Intent{}, "intent has no kind"},
		{"bad input", Intent{Kind: "k", Input: json.RawMessage(`{`)}, "k intent input is not valid JSON"},
		{"trailing input", Intent{Kind: "k", Input: json.RawMessage(`1 2`)}, "trailing data"},
		{"input over bound", Intent{Kind: "k", Input: json.RawMessage(`"` + strings.Repeat("x", 80) + `"`)}, "k intent input is 82 bytes, over the 64-byte bound"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &MemStore{}
			j := open(t, s)
			ran := false
			_, err := j.Run(context.Background(), tt.in, func(context.Context) Outcome { ran = true; return Outcome{} })
			if ran || err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ran=%v err=%v; want %q", ran, err, tt.want)
			}
			if recs, _ := s.Records(context.Background()); len(recs) != 0 {
				t.Fatalf("records = %v", recs)
			}
		})
	}
}

func TestCancellation(t *testing.T) {
	t.Run("cancelled before begin records nothing", func(t *testing.T) {
		s := &MemStore{}
		j := open(t, s)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := j.Run(ctx, Intent{Kind: "k"}, func(context.Context) Outcome { t.Fatal("ran"); return Outcome{} })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if recs, _ := s.Records(ctx); len(recs) != 0 {
			t.Fatalf("records = %v", recs)
		}
	})
	t.Run("cancelled after intent is not applied", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		s := &MemStore{Fail: func(r Record) error {
			if _, ok := r.(Intent); ok {
				cancel() // the abort lands while the intent is being recorded
			}
			return nil
		}}
		j := open(t, s)
		c, err := j.Run(ctx, Intent{Kind: "k"}, func(context.Context) Outcome { t.Fatal("ran"); return Outcome{} })
		if err != nil {
			t.Fatal(err)
		}
		if c.Mutation != model.MutationNotApplied || !strings.Contains(c.Error, "before the effect began") {
			t.Fatalf("completion = %+v", c)
		}
	})
	t.Run("cancelled mid-way reports the effect's state", func(t *testing.T) {
		j := open(t, &MemStore{})
		ctx, cancel := context.WithCancel(context.Background())
		c, err := j.Run(ctx, Intent{Kind: "process.run"}, func(ctx context.Context) Outcome {
			cancel()
			<-ctx.Done()
			return Outcome{Err: ctx.Err()} // the process may have done anything
		})
		if err != nil {
			t.Fatal(err)
		}
		if c.Mutation != model.MutationUnknown {
			t.Fatalf("completion = %+v", c)
		}
	})
}

func TestCompletionRecordFailureIsTerminal(t *testing.T) {
	s := &MemStore{Fail: func(r Record) error {
		if _, ok := r.(Completion); ok {
			return errors.New("io error")
		}
		return nil
	}}
	j := open(t, s)
	_, err := j.Run(context.Background(), Intent{Kind: "fs.write"}, func(context.Context) Outcome {
		return Outcome{Mutation: model.MutationApplied}
	})
	var ce *CompletionError
	if !errors.As(err, &ce) || ce.Mutation != model.MutationApplied {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "best known state: applied") {
		t.Fatalf("err = %q", err)
	}
	ran := false
	_, err = j.Run(context.Background(), Intent{Kind: "fs.read"}, func(context.Context) Outcome { ran = true; return Outcome{} })
	if ran || !errors.Is(err, ErrJournalFailed) {
		t.Fatalf("ran=%v err=%v; want the journal closed", ran, err)
	}
}

func TestDoubleCompleteRecordsOnce(t *testing.T) {
	s := &MemStore{}
	j := open(t, s)
	e, err := j.Begin(context.Background(), Intent{Kind: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Complete(Outcome{}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Complete(Outcome{}); err == nil || !strings.Contains(err.Error(), "already completed") {
		t.Fatalf("err = %v", err)
	}
	if recs, _ := s.Records(context.Background()); len(recs) != 2 {
		t.Fatalf("records = %d", len(recs))
	}
}

func TestPanicCompletesUnknown(t *testing.T) {
	s := &MemStore{}
	j := open(t, s)
	func() {
		defer func() { _ = recover() }()
		_, _ = j.Run(context.Background(), Intent{Kind: "k"}, func(context.Context) Outcome { panic("bad") })
	}()
	recs, _ := s.Records(context.Background())
	if len(recs) != 2 || recs[1].(Completion).Mutation != model.MutationUnknown {
		t.Fatalf("records = %+v", recs)
	}
}

func TestRecoveryMarksUnknownAndNeverRetries(t *testing.T) {
	s := &MemStore{}
	j := open(t, s)
	// One complete effect, then one whose process "dies" mid-way: the intent
	// is recorded, the completion never is.
	if _, err := j.Run(context.Background(), Intent{Kind: "fs.read"}, func(context.Context) Outcome { return Outcome{} }); err != nil {
		t.Fatal(err)
	}
	dead, err := j.Begin(context.Background(), Intent{Kind: "fs.write", Parent: "call_9"})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := s.Records(context.Background())

	j2, rec, err := Open(context.Background(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec) != 1 || rec[0].ID != dead.Intent().ID || rec[0].Mutation != model.MutationUnknown || !rec[0].Recovered {
		t.Fatalf("recovered = %+v", rec)
	}
	after, _ := s.Records(context.Background())
	if len(after) != len(before)+1 {
		t.Fatalf("recovery appended %d records; want exactly the one completion", len(after)-len(before))
	}
	for _, r := range after[len(before):] {
		if _, isIntent := r.(Intent); isIntent {
			t.Fatal("recovery re-issued an intent (a retry)")
		}
	}
	// Reopening again finds nothing to recover.
	if _, rec, _ := Open(context.Background(), s, Options{}); len(rec) != 0 {
		t.Fatalf("second recovery = %v", rec)
	}
	_ = j2
}

func TestRecoveryStoreFailures(t *testing.T) {
	s := &MemStore{}
	_ = s.Append(context.Background(), Intent{ID: "A", Kind: "k"})
	s.Fail = func(Record) error { return errors.New("read-only") }
	if _, _, err := Open(context.Background(), s, Options{}); err == nil || !strings.Contains(err.Error(), "record recovered completion of effect A: read-only") {
		t.Fatalf("err = %v", err)
	}
}

// TestJournalHammer runs many effects concurrently: every intent precedes
// its completion and every effect is completed exactly once.
func TestJournalHammer(t *testing.T) {
	s := &MemStore{}
	j := open(t, s)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				in := Intent{Kind: "k", Input: json.RawMessage(fmt.Sprintf(`{"g":%d,"i":%d}`, g, i))}
				if _, err := j.Run(context.Background(), in, func(context.Context) Outcome { return Outcome{} }); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	recs, _ := s.Records(context.Background())
	seen := map[string]int{}
	for _, r := range recs {
		switch r := r.(type) {
		case Intent:
			if seen[r.ID] != 0 {
				t.Fatalf("intent %s out of order", r.ID)
			}
			seen[r.ID] = 1
		case Completion:
			if seen[r.ID] != 1 {
				t.Fatalf("completion %s without a prior intent", r.ID)
			}
			seen[r.ID] = 2
		}
	}
	if len(seen) != 400 {
		t.Fatalf("effects = %d", len(seen))
	}
	for id, st := range seen {
		if st != 2 {
			t.Fatalf("effect %s not completed", id)
		}
	}
}
