package session

import (
	"context"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// TestBranchSummary: after "one two three" the session moves back to
// "one" with a summary of "two three": LeftBehind finds them and the fork;
// the branch_summary entry under "one" records the summary, the lineage
// and the usage, round-trips through the file and is selected; the
// context shows it at its place as a user message; the accounting counts
// its request once, in the context (PriorUsage) and on the branch
// (BranchUsage); a compaction over it counts it in its prior accounting;
// and an empty summary, a missing branch or an unknown entry is refused.
func TestBranchSummary(t *testing.T) {
	f, st := newStore(t)
	sess := f.Session()
	record(t, st, "one", "two")
	if err := st.Record(context.Background(), model.AssistantMessage{Content: []model.Content{model.Text{Text: "three"}},
		Usage: model.Usage{Input: model.Known(10), Output: model.Known(1), CostNanoUSD: model.Known(7)}}); err != nil {
		t.Fatal(err)
	}
	one, from := 0, sess.Selected()
	fork, entries, msgs, err := LeftBehind(sess, from, one)
	if err != nil || fork != one || len(entries) != 2 || entries[0] != 1 || entries[1] != 2 || len(msgs) != 2 {
		t.Fatalf("LeftBehind = %d %v %d, %v", fork, entries, len(msgs), err)
	}
	if _, entries, _, _ := LeftBehind(sess, one, from); len(entries) != 0 {
		t.Fatalf("moving on along the branch leaves %v behind", entries)
	}

	usage := model.Usage{Input: model.Known(90), Output: model.Known(9), CacheRead: model.Unknown(), CostNanoUSD: model.Known(40)}
	b := BranchSummary{Summary: "they said two, then three", From: sess.ID(from), Fork: sess.ID(one), SummarizedFirst: sess.ID(1),
		SummarizedLast: sess.ID(2), Summarized: 2, Instructions: "short", Model: "mock", Usage: usage}
	for _, bad := range []struct {
		at   sessionfmt.ID
		b    BranchSummary
		want string
	}{
		{sess.ID(one), BranchSummary{Summary: " ", From: b.From}, "needs its summary"},
		{sess.ID(one), BranchSummary{Summary: "x"}, "needs the leaf"},
		{sessionfmt.NewID(), b, "is not in"},
	} {
		if _, err := st.RecordBranchSummary(bad.at, bad.b); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("RecordBranchSummary(%+v) = %v, want %q", bad.b, err, bad.want)
		}
	}
	if sess.Selected() != from {
		t.Fatalf("a refused branch summary moved the session to %d", sess.Selected())
	}
	id, err := st.RecordBranchSummary(sess.ID(one), b)
	if err != nil {
		t.Fatal(err)
	}
	at := sess.Index(id)
	if sess.Selected() != at || sess.Parent(at) != one || sess.Kind(at) != sessionfmt.KindBranchSummary || sess.Entry(at).Pair != b.From {
		t.Fatalf("entry %d: selected %d, parent %d, kind %s", at, sess.Selected(), sess.Parent(at), sess.Kind(at))
	}
	loaded, _, err := sessionfmt.Load(f.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Selected() != at {
		t.Fatalf("reloaded, the selected entry is %d, want the branch summary %d", loaded.Selected(), at)
	}
	got, err := BranchSummaryEntry(loaded, at)
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary != b.Summary || got.From != b.From || got.Fork != b.Fork || got.SummarizedFirst != b.SummarizedFirst ||
		got.SummarizedLast != b.SummarizedLast || got.Summarized != 2 || got.Instructions != "short" || got.Model != "mock" {
		t.Fatalf("decoded %+v", got)
	}
	if _, ok := got.Usage.CacheRead.Value(); ok {
		t.Error("an unknown cache read became known")
	}
	if _, err := BranchSummaryEntry(loaded, one); err == nil {
		t.Error("a message decoded as a branch summary")
	}

	record(t, st, "four")
	c := branchContext(t, sess)
	if text := contextText(t, c); text != "user one | user "+BranchSummaryHeading+"they said two, then three | user four" {
		t.Fatalf("context %q", text)
	}
	if u, ok := c.BranchSummaries[1]; !ok || len(c.BranchSummaries) != 1 || c.Entries[1] != at {
		t.Fatalf("the context's branch summaries %v (entries %v)", c.BranchSummaries, c.Entries)
	} else if n, _ := u.CostNanoUSD.Value(); n != 40 {
		t.Fatalf("its usage %+v", u)
	}
	if got := texts(t, sess); got != "one four" {
		t.Fatalf("the transcript of the branch is %q; a branch summary is no message of it", got)
	}
	cost := func(u model.Usage) int64 { n, _ := u.CostNanoUSD.Value(); return n }
	if u, n, err := PriorUsage(sess, sess.Selected()); err != nil || n != 1 || cost(u) != 40 {
		t.Fatalf("PriorUsage = %+v, %d, %v", u, n, err)
	}
	if u, n, err := BranchUsage(sess, sess.Selected()); err != nil || n != 1 || cost(u) != 40 {
		t.Fatalf("BranchUsage = %+v, %d, %v", u, n, err)
	}
	// On the branch left behind, only its own response counts.
	if u, n, err := BranchUsage(sess, from); err != nil || n != 1 || cost(u) != 7 {
		t.Fatalf("BranchUsage of the branch left = %+v, %d, %v", u, n, err)
	}

	// A compaction that summarises the branch summary takes its request
	// into its prior accounting; one that keeps it counts it stale.
	four := sess.ID(sess.Selected())
	z := model.Known(0)
	none := model.Usage{Input: z, Output: z, CacheRead: z, CacheWrite: z, Reasoning: z, CostNanoUSD: z}
	if _, err := st.RecordCompaction(Compaction{Summary: "S", FirstKept: id, Reason: "manual", Prior: none}); err != nil {
		t.Fatal(err)
	}
	if c := branchContext(t, sess); c.Stale != 3 || contextText(t, c) != "summary:S | user "+BranchSummaryHeading+"they said two, then three | user four" {
		t.Fatalf("a compaction keeping the branch summary: %s (stale %d)", contextText(t, c), c.Stale)
	}
	if u, n, _ := PriorUsage(sess, sess.Selected()); n != 1 || cost(u) != 40 {
		t.Fatalf("PriorUsage with the branch summary kept = %+v, %d", u, n)
	}
	prior := model.Usage{Input: model.Known(90), Output: model.Known(9), CostNanoUSD: model.Known(40 + 5)}
	if _, err := st.RecordCompaction(Compaction{Summary: "S2", FirstKept: four, Reason: "manual", Prior: prior, PriorResponses: 2}); err != nil {
		t.Fatal(err)
	}
	if u, n, _ := PriorUsage(sess, sess.Selected()); n != 2 || cost(u) != 45 {
		t.Fatalf("PriorUsage with the branch summary compacted = %+v, %d", u, n)
	}
}
