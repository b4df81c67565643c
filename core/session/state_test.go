package session

import (
	"errors"
	"fmt"
	"testing"
)

// TestPluginStateCommits: commits version each key from 1, removals keep
// counting, a refusing check writes nothing, and each plugin sees only its
// own keys.
func TestPluginStateCommits(t *testing.T) {
	f, st := newStore(t)
	defer f.Close()
	ok := func(map[string]StateValue) error { return nil }
	for i, want := range []uint64{1, 2, 3} {
		v, err := st.CommitPluginState("p", "c", "k", []string{"a", "", "b"}[i], ok)
		if err != nil || v != want {
			t.Fatalf("commit %d = %d, %v; want version %d", i, v, err, want)
		}
	}
	refused := errors.New("no")
	if _, err := st.CommitPluginState("p", "c", "k", "z", func(map[string]StateValue) error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("a refused commit: %v", err)
	}
	if _, err := st.CommitPluginState("q", "c", "k", "other", ok); err != nil {
		t.Fatal(err)
	}
	got, err := st.PluginState("p")
	if err != nil || len(got) != 1 || got["k"] != (StateValue{Value: "b", Version: 3}) {
		t.Fatalf("PluginState(p) = %+v, %v", got, err)
	}
}

// BenchmarkStateCommit is one durable commit of a 1 KiB value into a
// session holding 1,000 earlier commits of the plugin (read, check,
// append, fsync).
func BenchmarkStateCommit(b *testing.B) {
	f, st := newStore(b)
	defer f.Close()
	ok := func(map[string]StateValue) error { return nil }
	value := string(make([]byte, 1024))
	for i := range 1000 {
		if _, err := st.CommitPluginState("p", "c", fmt.Sprint("k", i%50), value, ok); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := st.CommitPluginState("p", "c", fmt.Sprint("k", i%50), value, ok); err != nil {
			b.Fatal(err)
		}
	}
}
