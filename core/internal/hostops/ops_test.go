package hostops

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/model"
)

type fixture struct {
	ops   *Ops
	store *effect.MemStore
	dir   string
	inv   Invocation
}

func setup(t testing.TB, fail func(effect.Record) error) *fixture {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := hostfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	store := &effect.MemStore{Fail: fail}
	j, _, err := effect.Open(context.Background(), store, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{ops: &Ops{FS: fs, Journal: j}, store: store, dir: dir, inv: Invocation{Cwd: dir, CallID: "call_1", Generation: 7}}
}

// records returns the journal as "kind input" / "mutation" lines.
func (f *fixture) records(t testing.TB) (intents []effect.Intent, completions []effect.Completion) {
	t.Helper()
	recs, _ := f.store.Records(context.Background())
	for _, r := range recs {
		switch r := r.(type) {
		case effect.Intent:
			intents = append(intents, r)
		case effect.Completion:
			completions = append(completions, r)
		}
	}
	return
}

func TestEveryPrimitiveIsJournaled(t *testing.T) {
	f := setup(t, nil)
	ctx := context.Background()
	steps := []struct {
		name  string
		kind  string
		input string
		do    func() error
	}{
		{"read", "fs.read", `{"limit":1,"path":"a.txt"}`, func() error {
			r, _, err := f.ops.Read(ctx, f.inv, ReadArgs{Path: "a.txt", Limit: 1})
			if err == nil && r.Text != "alpha\n" {
				err = errors.New("read " + r.Text)
			}
			return err
		}},
		{"write", "fs.write", `{"abs_path":"` + f.dir + `/b.txt","bytes":2,"path":"b.txt","sha256":"8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"}`, func() error {
			_, _, err := f.ops.Write(ctx, f.inv, "b.txt", "hi")
			return err
		}},
		{"edit", "fs.edit", "", func() error {
			_, _, err := f.ops.Edit(ctx, f.inv, "a.txt", "beta", "gamma")
			return err
		}},
		{"ls", "fs.ls", `{}`, func() error { _, _, err := f.ops.Ls(ctx, f.inv, LsArgs{}); return err }},
		{"find", "fs.find", `{"pattern":"*.txt"}`, func() error { _, _, err := f.ops.Find(ctx, f.inv, FindArgs{Pattern: "*.txt"}); return err }},
		{"grep", "fs.grep", `{"pattern":"gamma"}`, func() error {
			r, _, err := f.ops.Grep(ctx, f.inv, GrepArgs{Pattern: "gamma"})
			if err == nil && len(r.Matches) != 1 {
				err = errors.New("grep missed the edit")
			}
			return err
		}},
		{"bash", "process.run", `{"command":"echo ok"}`, func() error {
			r, _, err := f.ops.Bash(ctx, f.inv, BashArgs{Command: "echo ok"})
			if err == nil && string(r.Output) != "ok\n" {
				err = errors.New("bash said " + string(r.Output))
			}
			return err
		}},
	}
	for i, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		intents, completions := f.records(t)
		if len(intents) != i+1 || len(completions) != i+1 {
			t.Fatalf("%s: %d intents, %d completions", s.name, len(intents), len(completions))
		}
		in, c := intents[i], completions[i]
		if in.Kind != s.kind || in.Parent != "call_1" || in.Generation != 7 || (s.input != "" && string(in.Input) != s.input) {
			t.Fatalf("%s: intent = %+v (input %s)", s.name, in, in.Input)
		}
		if c.ID != in.ID || c.Mutation != model.MutationApplied || !json.Valid(c.Output) {
			t.Fatalf("%s: completion = %+v", s.name, c)
		}
	}
	if intents, _ := f.records(t); strings.Contains(string(intents[1].Input), `"hi"`) {
		t.Fatal("write content leaked into the intent")
	}
}

// TestIntentFailurePreventsTheWrite: with the journal unable to record the
// intent, nothing is written.
func TestIntentFailurePreventsTheWrite(t *testing.T) {
	f := setup(t, func(r effect.Record) error {
		if _, ok := r.(effect.Intent); ok {
			return errors.New("session disk full")
		}
		return nil
	})
	_, c, err := f.ops.Write(context.Background(), f.inv, "new.txt", "x")
	if err == nil || !strings.Contains(err.Error(), "the effect was not run") || c.Mutation != model.MutationNotApplied {
		t.Fatalf("err = %v, completion %+v", err, c)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("new.txt exists: %v", err)
	}
	_, _, err = f.ops.Bash(context.Background(), f.inv, BashArgs{Command: "touch ran"})
	if err == nil {
		t.Fatal("bash ran without an intent")
	}
	if _, err := os.Stat(filepath.Join(f.dir, "ran")); !os.IsNotExist(err) {
		t.Fatalf("the command ran: %v", err)
	}
}

func TestFailuresRecordTheirMutationState(t *testing.T) {
	tests := []struct {
		name string
		do   func(f *fixture) error
		want model.Mutation
		text string
	}{
		{"escape refused", func(f *fixture) error {
			_, _, err := f.ops.Write(context.Background(), f.inv, "../x.txt", "x")
			return err
		}, model.MutationNotApplied, "outside the allowed roots"},
		{"edit without match", func(f *fixture) error {
			_, _, err := f.ops.Edit(context.Background(), f.inv, "a.txt", "delta", "x")
			return err
		}, model.MutationNotApplied, "not found"},
		{"bash outside roots", func(f *fixture) error {
			_, _, err := f.ops.Bash(context.Background(), f.inv, BashArgs{Command: "touch escaped", Dir: filepath.Dir(f.dir)})
			return err
		}, model.MutationNotApplied, "hostops: working directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := setup(t, nil)
			if err := tt.do(f); err == nil || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("err = %v; want %q", err, tt.text)
			}
			_, completions := f.records(t)
			if len(completions) != 1 || completions[0].Mutation != tt.want || !strings.Contains(completions[0].Error, tt.text) {
				t.Fatalf("completions = %+v", completions)
			}
		})
	}
}

// TestCancelledProcessIsUnknown: a command stopped mid-way may have done
// part of its work; the record says unknown.
func TestCancelledProcessIsUnknown(t *testing.T) {
	f := setup(t, nil)
	r, c, err := f.ops.Bash(context.Background(), f.inv, BashArgs{Command: "echo partial; sleep 30", TimeoutMs: 300})
	if err != nil {
		t.Fatal(err)
	}
	if !r.TimedOut || c.Mutation != model.MutationUnknown || !strings.Contains(string(c.Output), `"timed_out":true`) {
		t.Fatalf("result %+v completion %+v", r, c)
	}
}

type effectRecord = effect.Record

// cancelSoon cancels after the command has started.
func cancelSoon(cancel context.CancelFunc) {
	go func() {
		time.Sleep(150 * time.Millisecond)
		cancel()
	}()
}
