package session

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// newStore creates a session file in a temporary directory and its Store.
func newStore(t testing.TB) (*sessionfmt.File, *Store) {
	t.Helper()
	f, err := sessionfmt.Create(filepath.Join(t.TempDir(), "s.session"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	st, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	return f, st
}

// contextText renders a context's messages as one line each: "summary:
// TEXT", "user TEXT", "assistant TEXT" or "result CALL".
func contextText(t testing.TB, c Context) string {
	t.Helper()
	var out []string
	for k, m := range c.Messages {
		switch m := m.(type) {
		case model.UserMessage:
			text := model.TextOf(m.Content)
			if s, ok := strings.CutPrefix(text, SummaryHeading); ok {
				if c.Entries[k] != -1 {
					t.Fatalf("the summary has entry %d", c.Entries[k])
				}
				out = append(out, "summary:"+s)
				continue
			}
			out = append(out, "user "+text)
		case model.AssistantMessage:
			out = append(out, "assistant "+model.TextOf(m.Content))
		case model.ToolResultMessage:
			out = append(out, "result "+m.CallID)
		}
	}
	return strings.Join(out, " | ")
}

func branchContext(t testing.TB, sess *sessionfmt.Session) Context {
	t.Helper()
	c, err := BranchContext(sess, sess.Selected())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRecordCompaction: a compaction entry holds what it says — the
// summary, its first kept entry as its Pair, the lineage, the token
// estimates, the reason and instructions, the summary request's usage
// and the prior accounting — and unknown usage stays unknown; an empty
// summary or an unknown reason is never recorded.
func TestRecordCompaction(t *testing.T) {
	f, st := newStore(t)
	record(t, st, "one", "two", "three")
	sess := f.Session()
	usage := model.Usage{Input: model.Known(900), Output: model.Known(120), CacheRead: model.Unknown(), CacheWrite: model.Known(0),
		Reasoning: model.Unknown(), CostNanoUSD: model.Known(4500)}
	prior := model.Usage{Input: model.Known(5000), Output: model.Known(700), CostNanoUSD: model.Unknown()}
	c := Compaction{Summary: "they counted", FirstKept: sess.ID(2), SummarizedFirst: sess.ID(0), SummarizedLast: sess.ID(1), Summarized: 2,
		TokensBefore: 3000, TokensAfter: 400, Reason: "manual", Instructions: "keep numbers", Model: "mock", Usage: usage,
		Prior: prior, PriorResponses: 3}
	id, err := st.RecordCompaction(c)
	if err != nil {
		t.Fatal(err)
	}
	i := sess.Index(id)
	if e := sess.Entry(i); e.Kind != sessionfmt.KindCompaction || e.Pair != sess.ID(2) || e.Parent != sess.ID(2) {
		t.Fatalf("entry %+v", e)
	}
	got, err := CompactionEntry(sess, i)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", c) {
		t.Fatalf("decoded\n%+v\nwant\n%+v", got, c)
	}
	if got.Usage.CacheRead.IsKnown() || got.Prior.CostNanoUSD.IsKnown() || !got.Usage.CacheWrite.IsKnown() {
		t.Fatalf("unknown usage must stay unknown and zero stay zero: %+v", got.Usage)
	}

	for _, tt := range []struct {
		name string
		c    Compaction
		want string
	}{
		{name: "empty summary", c: Compaction{Summary: " \n", Reason: "manual"}, want: "needs its summary"},
		{name: "unknown reason", c: Compaction{Summary: "s", Reason: "bored"}, want: `reason "bored" is not one of threshold, overflow, manual`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := sess.Len()
			if _, err := st.RecordCompaction(tt.c); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if sess.Len() != n {
				t.Fatal("a refused compaction was recorded")
			}
		})
	}
	if _, err := CompactionEntry(sess, 0); err == nil || !strings.Contains(err.Error(), "not a compaction") {
		t.Fatalf("a message entry as a compaction: %v", err)
	}
}

// TestBranchContext: the context of a branch is every message without a
// compaction, and the summary and the messages from the first kept entry
// on with one; a later compaction replaces an earlier one; a compaction
// that keeps nothing leaves the summary and what follows it; the full
// transcript still has every message; and a compaction whose kept entry
// is not on the branch is not in force.
func TestBranchContext(t *testing.T) {
	f, st := newStore(t)
	sess := f.Session()
	record(t, st, "one", "two", "three")
	if got := contextText(t, branchContext(t, sess)); got != "user one | user two | user three" {
		t.Fatalf("no compaction: %s", got)
	}
	// A secret registration before the boundary stays on the branch.
	secret, _ := sessionfmt.EncodeContent(map[string]string{})
	if err := st.append(sessionfmt.Entry{Kind: sessionfmt.KindSecretRegistration, Key: "API_TOKEN", Content: secret}, sessionfmt.Buffered); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordCompaction(Compaction{Summary: "S1", FirstKept: sess.ID(2), Reason: "threshold"}); err != nil {
		t.Fatal(err)
	}
	record(t, st, "four")
	c := branchContext(t, sess)
	if got := contextText(t, c); got != "summary:S1 | user three | user four" || c.Stale != 2 || c.Compaction.Summary != "S1" {
		t.Fatalf("one compaction: %s (stale %d)", got, c.Stale)
	}
	if got := texts(t, sess); got != "one two three four" {
		t.Fatalf("the full transcript is %q", got)
	}
	registered := false
	for _, i := range sess.History(sess.Selected(), nil) {
		registered = registered || sess.Kind(i) == sessionfmt.KindSecretRegistration
	}
	if !registered {
		t.Fatal("the secret registration left the branch")
	}

	four := sess.ID(sess.Selected())
	if _, err := st.RecordCompaction(Compaction{Summary: "S2", FirstKept: four, Reason: "overflow"}); err != nil {
		t.Fatal(err)
	}
	record(t, st, "five")
	if got := contextText(t, branchContext(t, sess)); got != "summary:S2 | user four | user five" {
		t.Fatalf("second compaction: %s", got)
	}
	if _, err := st.RecordCompaction(Compaction{Summary: "S3", Reason: "manual"}); err != nil {
		t.Fatal(err)
	}
	c = branchContext(t, sess)
	if got := contextText(t, c); got != "summary:S3" || c.Stale != 1 {
		t.Fatalf("keeping nothing: %s (stale %d)", got, c.Stale)
	}
	record(t, st, "six")
	if got := contextText(t, branchContext(t, sess)); got != "summary:S3 | user six" {
		t.Fatalf("after keeping nothing: %s", got)
	}
	if got := texts(t, sess); got != "one two three four five six" {
		t.Fatalf("the full transcript is %q", got)
	}

	// A kept entry that is not on the branch: the compaction is ignored.
	g, gst := newStore(t)
	record(t, gst, "a", "b")
	if _, err := gst.RecordCompaction(Compaction{Summary: "lost", FirstKept: sessionfmt.NewID(), Reason: "manual"}); err != nil {
		t.Fatal(err)
	}
	if c := branchContext(t, g.Session()); contextText(t, c) != "user a | user b" || c.Compaction != nil || c.At != -1 {
		t.Fatalf("a compaction keeping an unknown entry: %s", contextText(t, c))
	}
}

// TestContextAcrossBranchesAndForks: selecting a branch that forks before
// the compaction shows that branch whole; selecting the compacted branch
// again, forking it and resuming it from disk all keep its boundary.
func TestContextAcrossBranchesAndForks(t *testing.T) {
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f, info, err := d.Create("main")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := New(f)
	sess := f.Session()
	record(t, st, "one", "two", "three")
	if _, err := st.RecordCompaction(Compaction{Summary: "S", FirstKept: sess.ID(2), Reason: "manual"}); err != nil {
		t.Fatal(err)
	}
	record(t, st, "four")
	compacted := sess.ID(sess.Selected())
	const want = "summary:S | user three | user four"

	if err := f.Select(sess.ID(1), sessionfmt.Durable); err != nil {
		t.Fatal(err)
	}
	record(t, st, "three-b")
	if got := contextText(t, branchContext(t, sess)); got != "user one | user two | user three-b" {
		t.Fatalf("the other branch: %s", got)
	}
	if err := f.Select(compacted, sessionfmt.Durable); err != nil {
		t.Fatal(err)
	}
	if got := contextText(t, branchContext(t, sess)); got != want {
		t.Fatalf("the compacted branch selected again: %s", got)
	}
	if got := contextText(t, branchContext(t, sess.Fork(sess.Selected()))); got != want {
		t.Fatalf("in-memory fork: %s", got)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	nf, _, err := d.Fork(info, compacted, "fork")
	if err != nil {
		t.Fatal(err)
	}
	if got := contextText(t, branchContext(t, nf.Session())); got != want {
		t.Fatalf("fork on disk: %s", got)
	}
	_ = nf.Close()
	loaded, _, err := sessionfmt.Load(info.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := contextText(t, branchContext(t, loaded)); got != want {
		t.Fatalf("resumed: %s", got)
	}
	if got := texts(t, loaded); got != "one two three four" {
		t.Fatalf("the resumed full transcript is %q", got)
	}
}

// longSession builds a session of n entries — turns of a prompt, a tool
// call, its result and an answer, with effect records between — whose
// branch has a compaction keeping its last kept turns.
func longSession(tb testing.TB, n, kept int) *sessionfmt.Session {
	tb.Helper()
	sess := sessionfmt.New()
	var parent sessionfmt.ID
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(k sessionfmt.Kind, content []byte, pair sessionfmt.ID) sessionfmt.ID {
		e := sessionfmt.Entry{ID: sessionfmt.NewID(), Parent: parent, Time: at, Kind: k, Pair: pair, Content: content}
		if k == sessionfmt.KindEffectIntent {
			e.Cause = parent
		}
		if err := sess.Add(e); err != nil {
			tb.Fatal(err)
		}
		parent = e.ID
		return e.ID
	}
	msg := func(m model.Message) []byte {
		b, err := encodeMessage(m)
		if err != nil {
			tb.Fatal(err)
		}
		return b
	}
	effectContent, _ := sessionfmt.EncodeContent(map[string]string{"kind": "fs.read"})
	var firstKept sessionfmt.ID
	turns := n / 6
	for i := range turns {
		id := add(sessionfmt.KindMessage, msg(model.UserText(fmt.Sprintf("prompt %d: read the file and say what it holds", i))), sessionfmt.ID{})
		if i == turns-kept {
			firstKept = id
		}
		call := fmt.Sprintf("call_%d", i)
		add(sessionfmt.KindMessage, msg(model.AssistantMessage{Content: []model.Content{model.ToolCall{ID: call, Name: "read", Arguments: json.RawMessage(`{"path":"a.go"}`)}},
			Stop: model.StopToolUse, Usage: model.Usage{Input: model.Known(int64(1000 * i)), Output: model.Known(40)}}), sessionfmt.ID{})
		eff := sessionfmt.NewID()
		add(sessionfmt.KindEffectIntent, effectContent, eff)
		add(sessionfmt.KindEffectCompletion, effectContent, eff)
		add(sessionfmt.KindMessage, msg(model.ToolResultMessage{CallID: call, Name: "read", Content: []model.Content{model.Text{Text: strings.Repeat("package a\n", 40)}}}), sessionfmt.ID{})
		add(sessionfmt.KindMessage, msg(model.AssistantMessage{Content: []model.Content{model.Text{Text: "It declares package a."}}, Stop: model.StopEnd}), sessionfmt.ID{})
	}
	summary, _ := sessionfmt.EncodeContent(compactionContent{Summary: "the user read a.go many times", FirstKept: firstKept.String(), Reason: "threshold"})
	for sess.Len() < n {
		if sess.Len() == n-1 {
			add(sessionfmt.KindCompaction, summary, firstKept)
			break
		}
		add(sessionfmt.KindMessage, msg(model.UserText("and now?")), sessionfmt.ID{})
	}
	return sess
}

// TestLongSessionContext: the benchmark's session has the context it is
// built to have.
func TestLongSessionContext(t *testing.T) {
	sess := longSession(t, 5000, 5)
	c := branchContext(t, sess)
	if sess.Len() != 5000 || c.Compaction == nil || len(c.Messages) != 1+5*4+sess.Len()-1-6*(5000/6) {
		t.Fatalf("%d entries, %d context messages", sess.Len(), len(c.Messages))
	}
}

// BenchmarkContextAfterCompaction assembles the context of a 5,000-entry
// session whose compaction keeps its last five turns: what resuming,
// forking or selecting the branch costs before the first request. The
// goal is at most 5 ms.
func BenchmarkContextAfterCompaction(b *testing.B) {
	sess := longSession(b, 5000, 5)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := BranchContext(sess, sess.Selected()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkContextFull is the same session's full transcript (Messages),
// for comparison.
func BenchmarkContextFull(b *testing.B) {
	sess := longSession(b, 5000, 5)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Messages(sess); err != nil {
			b.Fatal(err)
		}
	}
}
