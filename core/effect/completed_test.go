package effect

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// TestCompleted: the completed effects of the asked kinds, earlier
// journals' included, in the order their completions were recorded;
// running effects are left out.
func TestCompleted(t *testing.T) {
	ctx := context.Background()
	s := &MemStore{}
	j := open(t, s)
	a, err := j.Begin(ctx, Intent{Kind: "fs.read", Parent: "call_a"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := j.Begin(ctx, Intent{Kind: "fs.write", Parent: "call_b"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Run(ctx, Intent{Kind: "process.run", Parent: "call_c"}, func(context.Context) Outcome { return Outcome{} }); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Complete(Outcome{Output: []byte(`"b"`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Complete(Outcome{Mutation: model.MutationNotApplied, Output: []byte(`"a"`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Begin(ctx, Intent{Kind: "fs.edit", Parent: "call_d"}); err != nil { // still running
		t.Fatal(err)
	}
	describe := func(ds []Done) string {
		var parts []string
		for _, d := range ds {
			if d.Intent.ID != d.Completion.ID {
				t.Fatalf("intent %s paired with completion %s", d.Intent.ID, d.Completion.ID)
			}
			parts = append(parts, d.Intent.Kind+"<"+d.Intent.Parent+" "+string(d.Completion.Mutation)+" "+string(d.Completion.Output))
		}
		return strings.Join(parts, ", ")
	}
	tests := []struct {
		name  string
		kinds []string
		want  string
	}{
		{"all kinds", nil, `process.run<call_c applied , fs.write<call_b applied "b", fs.read<call_a not_applied "a"`},
		{"file kinds", []string{"fs.read", "fs.write", "fs.edit"}, `fs.write<call_b applied "b", fs.read<call_a not_applied "a"`},
		{"one kind", []string{"fs.read"}, `fs.read<call_a not_applied "a"`},
		{"no such kind", []string{"http.request"}, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := j.Completed(ctx, tt.kinds...)
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(ds); got != tt.want {
				t.Fatalf("Completed(%q) = %s\nwant %s", tt.kinds, got, tt.want)
			}
		})
	}

	// A new journal over the same store sees the earlier effects, and the
	// one left running, recovered as unknown, comes last.
	j2, rec, err := Open(ctx, s, Options{})
	if err != nil || len(rec) != 1 {
		t.Fatalf("reopen: recovered %v, %v", rec, err)
	}
	ds, err := j2.Completed(ctx, "fs.edit", "fs.write")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(ds), `fs.write<call_b applied "b", fs.edit<call_d unknown `; got != want {
		t.Fatalf("after reopening: %s\nwant %s", got, want)
	}
	if !ds[1].Completion.Recovered {
		t.Fatalf("recovered completion not marked: %+v", ds[1].Completion)
	}
}

// brokenStore fails to read its records.
type brokenStore struct{ MemStore }

func (*brokenStore) Records(context.Context) ([]Record, error) {
	return nil, errors.New("session file unreadable")
}

func TestCompletedStoreFailure(t *testing.T) {
	j := &Journal{store: &brokenStore{}}
	_, err := j.Completed(context.Background(), "fs.read")
	if err == nil || !strings.Contains(err.Error(), "effect: read the journal's records: session file unreadable") {
		t.Fatalf("err = %v", err)
	}
}
