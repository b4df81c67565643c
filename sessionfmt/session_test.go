package sessionfmt

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadRepresentative(t *testing.T) {
	es := representative(t, 60)
	p, _ := realSession(t, 60, true)
	s, rep, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Damaged() || rep.Entries != len(es) || rep.Unknown != 2 || rep.Selects != 1 || rep.Compressed == 0 {
		t.Fatalf("report %+v", rep)
	}
	for i, want := range es {
		got := s.Entry(i)
		if got.ID != want.ID || got.Parent != want.Parent || !got.Time.Equal(want.Time) || got.Kind != want.Kind ||
			got.Pair != want.Pair || got.Cause != want.Cause || got.Key != want.Key || string(got.Content) != string(want.Content) {
			t.Fatalf("entry %d: got %+v want %+v", i, got, want)
		}
	}
	if sel := s.Selected(); s.ID(sel) != es[len(es)-3].ID {
		t.Fatalf("selected %d (%s), want the main tip %s", sel, s.ID(sel), es[len(es)-3].ID)
	}
	if leaves := s.Leaves(nil); len(leaves) != 2 {
		t.Fatalf("leaves %v, want 2 branches", leaves)
	}
}

func TestKindPairing(t *testing.T) {
	c := mustContent(t, "x")
	a, b := testID(1), testID(2)
	tests := []struct {
		name    string
		e       Entry
		wantErr string
	}{
		{"message", Entry{ID: a, Kind: KindMessage, Content: c}, ""},
		{"tool activity needs call id", Entry{ID: a, Kind: KindToolActivity, Content: c}, "no Key"},
		{"tool activity", Entry{ID: a, Kind: KindToolActivity, Key: "call_1", Content: c}, ""},
		{"model change", Entry{ID: a, Kind: KindModelChange, Content: c}, ""},
		{"compaction needs first kept", Entry{ID: a, Kind: KindCompaction, Content: c}, "no Pair"},
		{"compaction", Entry{ID: a, Kind: KindCompaction, Pair: b, Content: c}, ""},
		{"secret needs name", Entry{ID: a, Kind: KindSecretRegistration, Content: c}, "no Key"},
		{"secret", Entry{ID: a, Kind: KindSecretRegistration, Key: "TOKEN", Content: c}, ""},
		{"vcs needs effect", Entry{ID: a, Kind: KindVCSOperation, Content: c}, "no Pair"},
		{"vcs", Entry{ID: a, Kind: KindVCSOperation, Pair: b, Content: c}, ""},
		{"intent needs effect", Entry{ID: a, Kind: KindEffectIntent, Cause: b, Content: c}, "no Pair"},
		{"intent needs cause", Entry{ID: a, Kind: KindEffectIntent, Pair: b, Content: c}, "no Cause"},
		{"intent", Entry{ID: a, Kind: KindEffectIntent, Pair: b, Cause: b, Content: c}, ""},
		{"completion needs effect", Entry{ID: a, Kind: KindEffectCompletion, Content: c}, "no Pair"},
		{"completion", Entry{ID: a, Kind: KindEffectCompletion, Pair: b, Content: c}, ""},
		{"label needs target", Entry{ID: a, Kind: KindLabel, Key: "x", Content: c}, "no Pair"},
		{"label", Entry{ID: a, Kind: KindLabel, Pair: b, Content: c}, ""},
		{"plugin state needs plugin", Entry{ID: a, Kind: KindPluginStateCommit, Pair: b, Content: c}, "no Key"},
		{"plugin state", Entry{ID: a, Kind: KindPluginStateCommit, Pair: b, Key: "smith:todo", Content: c}, ""},
		{"replay metadata", Entry{ID: a, Kind: KindReplayMetadata, Content: c}, ""},
		{"branch summary needs the branch left", Entry{ID: a, Kind: KindBranchSummary, Content: c}, "no Pair"},
		{"branch summary", Entry{ID: a, Kind: KindBranchSummary, Pair: b, Content: c}, ""},
		{"unknown kind", Entry{ID: a, Kind: 99, Content: c}, "kind 99 is unknown"},
		{"zero id", Entry{Kind: KindMessage, Content: c}, "zero id"},
		{"empty content", Entry{ID: a, Kind: KindMessage}, "content is empty"},
		{"two items", Entry{ID: a, Kind: KindMessage, Content: append(slices.Clone(c), c...)}, "not one well-formed CBOR item"},
		{"bad utf-8 key", Entry{ID: a, Kind: KindMessage, Key: "\xff", Content: c}, "not UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.e.Validate()
			if tt.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestPairingSurvivesReload(t *testing.T) {
	p, _ := realSession(t, 60, false)
	s, _, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	intents := map[ID]int{}
	calls := map[string]int{}
	for i := range s.Len() {
		e := s.Entry(i)
		switch e.Kind {
		case KindEffectIntent:
			intents[e.Pair]++
			if s.Index(e.Cause) < 0 {
				t.Fatalf("intent %s: cause %s not in session", e.ID, e.Cause)
			}
		case KindEffectCompletion:
			intents[e.Pair]--
		case KindToolActivity:
			calls[e.Key]++
		}
	}
	if len(intents) == 0 || len(calls) == 0 {
		t.Fatal("no pairs in the representative session")
	}
	for id, n := range intents {
		if n != 0 {
			t.Fatalf("effect %s: %d unpaired intents", id, n)
		}
	}
	for k, n := range calls {
		if n != 2 {
			t.Fatalf("tool call %s has %d records, want call and result", k, n)
		}
	}
}

func TestAddRejects(t *testing.T) {
	s := New()
	c := mustContent(t, 1)
	if err := s.Add(Entry{ID: testID(1), Kind: KindMessage, Content: c}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, want string
		e          Entry
	}{
		{"duplicate id", "already in the session", Entry{ID: testID(1), Kind: KindMessage, Content: c}},
		{"missing parent", "is not in the session", Entry{ID: testID(2), Parent: testID(9), Kind: KindMessage, Content: c}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Add(tt.e); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
	if s.Len() != 1 {
		t.Fatalf("len %d after rejected adds", s.Len())
	}
}

func TestHistoryForkAndCompactionBoundary(t *testing.T) {
	es := representative(t, 120)
	s := New()
	for _, e := range es {
		if err := s.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	tip := len(es) - 3 // main branch tip (the last two entries are the side branch)
	hist := s.History(tip, nil)
	if hist[0] != 0 || hist[len(hist)-1] != tip {
		t.Fatalf("history %v", hist)
	}
	for k := 1; k < len(hist); k++ {
		if s.Parent(hist[k]) != hist[k-1] {
			t.Fatalf("history not linked at %d", k)
		}
	}
	c, kept, ok := s.CompactionBoundary(tip)
	if !ok || s.Kind(c) != KindCompaction || s.ID(kept) != s.Entry(c).Pair {
		t.Fatalf("boundary %d %d %v", c, kept, ok)
	}
	side := len(es) - 1
	if _, _, ok := s.CompactionBoundary(side); ok {
		t.Fatal("the side branch forks before the compaction and must have no boundary")
	}

	f := s.Fork(tip)
	if f.Len() != len(hist) || f.Selected() != f.Len()-1 {
		t.Fatalf("fork has %d entries (selected %d), want %d", f.Len(), f.Selected(), len(hist))
	}
	for k, i := range hist {
		a, b := s.Entry(i), f.Entry(k)
		if a.ID != b.ID || a.Parent != b.Parent || a.Kind != b.Kind || a.Pair != b.Pair || a.Key != b.Key || string(a.Content) != string(b.Content) {
			t.Fatalf("fork entry %d differs: %+v vs %+v", k, a, b)
		}
	}
	cl := s.Clone()
	if err := cl.Add(Entry{ID: testID(999999), Parent: s.ID(tip), Time: testEpoch, Kind: KindMessage, Content: mustContent(t, "x")}); err != nil {
		t.Fatal(err)
	}
	if s.Len() != len(es) || cl.Len() != len(es)+1 || s.Index(testID(999999)) >= 0 {
		t.Fatal("a clone shares state with its original")
	}
	if cc, ckept, ok := cl.CompactionBoundary(cl.Selected()); !ok || cc != c || ckept != kept {
		t.Fatal("clone lost the compaction boundary")
	}

	fc, fkept, ok := f.CompactionBoundary(f.Selected())
	if !ok || f.ID(fc) != s.ID(c) || f.ID(fkept) != s.ID(kept) {
		t.Fatal("fork lost the compaction boundary")
	}
	if got := f.Leaves(nil); len(got) != 1 {
		t.Fatalf("fork leaves %v", got)
	}

	// Publish the fork, reopen it, and check the same again from disk.
	p := filepath.Join(t.TempDir(), "fork.session")
	if err := f.Publish(p, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.Publish(p, nil); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("publishing over an existing file: %v", err)
	}
	g, rep, err := Load(p, nil)
	if err != nil || rep.Damaged() || g.Len() != f.Len() {
		t.Fatalf("reload fork: %v %+v", err, rep)
	}
	gc, gkept, ok := g.CompactionBoundary(g.Selected())
	if !ok || g.ID(gc) != s.ID(c) || g.ID(gkept) != s.ID(kept) {
		t.Fatal("published fork lost the compaction boundary")
	}
}

func TestResumeSelectAndForkFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.session")
	es := representative(t, 40)
	writeSession(t, p, es, false)

	w, err := Open(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := w.Session()
	mainTip := es[len(es)-3].ID
	if s.ID(s.Selected()) != mainTip {
		t.Fatalf("resume selected %s, want %s", s.ID(s.Selected()), mainTip)
	}
	// Continue the selected branch, then select the side branch.
	c := mustContent(t, message{Role: "user", Blocks: []string{"continue"}})
	if err := w.Append(Entry{ID: testID(5000), Parent: mainTip, Time: testEpoch, Kind: KindMessage, Content: c}, Durable); err != nil {
		t.Fatal(err)
	}
	if err := w.Select(es[len(es)-1].ID, Durable); err != nil {
		t.Fatal(err)
	}
	if err := w.Select(testID(777777), Durable); err == nil {
		t.Fatal("selecting a missing entry must fail")
	}
	fk, err := w.Fork(mainTip, filepath.Join(dir, "b.session"))
	if err != nil {
		t.Fatal(err)
	}
	if fk.Session().ID(fk.Session().Selected()) != mainTip {
		t.Fatal("fork file does not select the fork point")
	}
	fk.Close()
	w.Close()

	s2, _, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s2.Len() != len(es)+1 || s2.ID(s2.Selected()) != es[len(es)-1].ID {
		t.Fatalf("reloaded %d entries, selected %s", s2.Len(), s2.ID(s2.Selected()))
	}
	if got := len(s2.Leaves(nil)); got != 2 {
		t.Fatalf("branches %d, want 2", got)
	}
}

func TestVerifyChecksContent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "v.session")
	w, err := Create(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	good := Entry{ID: testID(1), Time: testEpoch, Kind: KindMessage, Content: mustContent(t, "fine")}
	if err := w.Append(good, Durable); err != nil {
		t.Fatal(err)
	}
	// A foreign writer stores content that is not CBOR (Append refuses it).
	w.buf, _ = w.enc.appendEntryFrame(w.buf[:0], &Entry{ID: testID(2), Parent: testID(1), Time: testEpoch, Kind: KindMessage, Content: []byte{0x62, 'h'}}, DefaultMaxPayload)
	if err := w.write(Durable); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, rep, err := Load(p, nil); err != nil || rep.Damaged() {
		t.Fatalf("load does not look at content: %v %+v", err, rep)
	}
	_, rep, err := Verify(p, nil)
	if err != nil || len(rep.BadContent) != 1 || !strings.Contains(rep.BadContent[0], testID(2).String()) || !rep.Damaged() {
		t.Fatalf("verify: %v %+v", err, rep)
	}
}
