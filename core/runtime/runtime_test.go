package runtime

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

const readScript = `{"mock_script":1,"responses":[
	{"tool_calls":[{"id":"call_1","name":"read","arguments":{"path":"hello.txt"}}]},
	{"text":"It says hi."}]}`

// TestToolTurn: a session over the mock model runs a tool-using turn
// through the real tools plugin; the events come in order with one
// sequence, the session records its working directory, its model and the
// conversation, and the state and stats say so.
func TestToolTurn(t *testing.T) {
	w := newWorld(t)
	w.write("hello.txt", "hi\n")
	w.write("read.mock.json", readScript)
	rt := w.open(map[string]string{"model": "mock/read.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{NameHint: "What does hello.txt say?"})
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "What does hello.txt say?")
	got := types(evs)
	if got[0] != "model_change" || got[1] != "agent_start" || !slices.Contains(got, "tool_execution_end") || got[len(got)-1] != "settled" {
		t.Fatalf("events %v", got)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Sequence() != evs[i-1].Sequence()+1 {
			t.Fatalf("sequence %d after %d", evs[i].Sequence(), evs[i-1].Sequence())
		}
	}
	end, err := s.Wait(context.Background())
	if err != nil || end.Reason != protocol.EndCompleted {
		t.Fatalf("Wait = %+v, %v", end, err)
	}
	info := s.Info()
	if info.Name != "what-does-hellotxt-say" || info.Cwd != w.project || info.Model != "mock/read.mock.json" || info.FirstPrompt != "What does hello.txt say?" {
		t.Errorf("Info = %+v", info)
	}
	st := s.State()
	if st.Running || st.Stats.Responses != 2 || st.Model.Name != "mock/read.mock.json" {
		t.Errorf("State = %+v", st)
	}
	tree := s.Tree()
	if len(tree) == 0 || tree[0].Kind != "replay_metadata" || tree[1].Kind != "model_change" || tree[1].Summary != "mock/read.mock.json" || !tree[len(tree)-1].Selected {
		t.Errorf("Tree = %+v", tree)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	sess, _, err := sessionfmt.Load(info.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := session.Messages(sess)
	if len(msgs) != 4 {
		t.Fatalf("%d messages recorded, want prompt, call, result, answer", len(msgs))
	}
	if tr, ok := msgs[2].(model.ToolResultMessage); !ok || !strings.Contains(tr.Content[0].(model.Text).Text, "hi") {
		t.Errorf("tool result %#v", msgs[2])
	}
}

// TestContinueAndResumeKeepTheModel: --continue picks the latest session
// of this directory only; a resumed session keeps its recorded model over
// the configured default, and a flag replaces it (recording the change).
func TestContinueAndResumeKeepTheModel(t *testing.T) {
	w := newWorld(t)
	w.write("hello.txt", "hi\n")
	w.write("read.mock.json", readScript)
	w.write("other.mock.json", `{"mock_script":1,"responses":[{"text":"other"},{"text":"other again"}]}`)
	rt := w.open(map[string]string{"model": "mock/read.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "first"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rt.ContinueSession(context.Background()); err == nil || !errors.Is(err, ErrUsage) {
		t.Fatalf("Continue with no recorded session = %v", err)
	}
	runPrompt(t, s, "read it")
	_ = s.Close(context.Background())
	// A session of another directory is never continued.
	other := newWorld(t)
	other.home = w.home
	other.write("x.mock.json", `{"mock_script":1,"responses":[{"text":"elsewhere"}]}`)
	ort := other.open(map[string]string{"model": "mock/x.mock.json"}, nil)
	os2, _ := ort.NewSession(context.Background(), NewSessionOptions{Name: "elsewhere"})
	runPrompt(t, os2, "hello")
	_ = ort.Close(context.Background())

	// The configured default differs, but the session keeps its own model.
	w.config(`model "mock/other.mock.json"` + "\n")
	rt2 := w.open(nil, nil)
	c, err := rt2.ContinueSession(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c.Info().Name != "first" {
		t.Fatalf("continued %+v; want this directory's session", c.Info())
	}
	if m := c.Model(); m.Name != "mock/read.mock.json" {
		t.Fatalf("resumed model %+v; want the session's own", m)
	}
	_ = c.Close(context.Background())

	// --model on resume is this run's explicit choice.
	rt3 := w.open(map[string]string{"model": "mock/other.mock.json"}, nil)
	r, err := rt3.OpenSession(context.Background(), "first")
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, r, "and now?")
	if types(evs)[0] != "model_change" {
		t.Fatalf("a changed model is recorded first: %v", types(evs))
	}
	if m := r.Model(); m.Name != "mock/other.mock.json" {
		t.Fatalf("model %+v; the flag changes the model", m)
	}
}

// TestDelivery: a prompt while a run is active is refused; steering input
// is delivered to the active run, follow-up input when it would stop; the
// queue is part of the state meanwhile.
func TestDelivery(t *testing.T) {
	w := newWorld(t)
	w.write("slow.mock.json", `{"mock_script":1,"responses":[
		{"tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"sleep 0.3; echo done"}}]},
		{"text":"first done"},
		{"text":"follow-up answered"}]}`)
	rt := w.open(map[string]string{"model": "mock/slow.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "d"})
	if err != nil {
		t.Fatal(err)
	}
	sub := s.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Submit(ctx, protocol.PromptParams{Text: "run the slow thing"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Submit(ctx, protocol.PromptParams{Text: "again"}); !errors.Is(err, ErrBusy) {
		t.Fatalf("a prompt during a run = %v, want ErrBusy", err)
	}
	if err := s.Submit(ctx, protocol.PromptParams{Text: "then say hi", Delivery: protocol.DeliverFollowUp}); err != nil {
		t.Fatal(err)
	}
	if st := s.State(); !st.Running || len(st.FollowUp) != 1 {
		t.Errorf("State during the run: running %v, follow-up %d", st.Running, len(st.FollowUp))
	}
	evs := untilSettled(t, ctx, sub)
	var answers []string
	for _, ev := range evs {
		if me, ok := ev.(protocol.MessageEnd); ok {
			if am, ok := me.Message.(model.AssistantMessage); ok && len(am.Content) > 0 {
				if tx, ok := am.Content[0].(model.Text); ok {
					answers = append(answers, tx.Text)
				}
			}
		}
	}
	if strings.Join(answers, "|") != "first done|follow-up answered" {
		t.Fatalf("answers %q; the follow-up is delivered when the run would stop", answers)
	}
	if err := s.Submit(ctx, protocol.PromptParams{Text: " "}); !errors.Is(err, ErrUsage) {
		t.Errorf("empty input = %v", err)
	}
}

// TestAbortAndEphemeral: an aborted run of an ephemeral store keeps the
// store (its path reported); a clean one removes it. A new session in
// which nothing was recorded leaves no file.
func TestAbortAndEphemeral(t *testing.T) {
	w := newWorld(t)
	w.write("hang.mock.json", `{"mock_script":1,"responses":[{"text":"thinking very hard","hang_after":2}]}`)
	w.write("ok.mock.json", `{"mock_script":1,"responses":[{"text":"fine"}]}`)

	rt := w.open(map[string]string{"model": "mock/ok.mock.json"}, func(c *Config) { c.Ephemeral = true })
	s, _ := rt.NewSession(context.Background(), NewSessionOptions{})
	runPrompt(t, s, "hi")
	path := s.Info().Path
	if err := rt.Close(context.Background()); err != nil || rt.Kept() != "" {
		t.Fatalf("Close = %v, kept %q", err, rt.Kept())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a clean ephemeral store was not removed: %v", err)
	}

	rt = w.open(map[string]string{"model": "mock/hang.mock.json"}, func(c *Config) { c.Ephemeral = true })
	s, _ = rt.NewSession(context.Background(), NewSessionOptions{})
	sub := s.Subscribe()
	if err := s.Submit(context.Background(), protocol.PromptParams{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	for ev := range sub.Events() {
		if u, ok := ev.(protocol.MessageUpdate); ok {
			if _, ok := u.Delta.(model.TextDelta); ok {
				s.Abort()
			}
		}
		if _, ok := ev.(protocol.Settled); ok {
			break
		}
	}
	end, _ := s.Wait(context.Background())
	if end.Reason != protocol.EndAborted {
		t.Fatalf("end %+v", end)
	}
	_ = rt.Close(context.Background())
	if kept := rt.Kept(); kept == "" {
		t.Fatal("an aborted ephemeral store was removed")
	} else {
		t.Cleanup(func() { os.RemoveAll(kept) })
	}

	rt = w.open(map[string]string{"model": "mock/ok.mock.json"}, nil)
	s, _ = rt.NewSession(context.Background(), NewSessionOptions{Name: "unused"})
	path = s.Info().Path
	_ = s.Close(context.Background())
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("an unused new session left its file: %v", err)
	}
}

// TestSetModelForkSelect: SetModel resolves and records the new model;
// a fork copies the history up to an entry; Select branches.
func TestSetModelForkSelect(t *testing.T) {
	w := newWorld(t)
	w.write("a.mock.json", `{"mock_script":1,"responses":[{"text":"one"},{"text":"two"}]}`)
	w.write("b.mock.json", `{"mock_script":1,"responses":[{"text":"from b"}]}`)
	rt := w.open(map[string]string{"model": "mock/a.mock.json"}, nil)
	s, _ := rt.NewSession(context.Background(), NewSessionOptions{Name: "tree"})
	runPrompt(t, s, "first")
	if err := s.SetModel(context.Background(), protocol.SetModelParams{Model: "mock/nope.json"}); !errors.Is(err, ErrUsage) {
		t.Fatalf("SetModel to a missing script = %v", err)
	}
	if err := s.SetModel(context.Background(), protocol.SetModelParams{Model: "mock/b.mock.json"}); err != nil {
		t.Fatal(err)
	}
	if mc, ok := session.LastModelChange(mustLoad(t, s.Info().Path)); !ok || mc.Model != "mock/b.mock.json" {
		t.Fatalf("last model_change %+v", mc)
	}
	evs := runPrompt(t, s, "second")
	if !strings.Contains(lastText(evs), "from b") {
		t.Fatalf("the new model did not answer: %q", lastText(evs))
	}
	tree := s.Tree()
	var firstAnswer string
	for _, n := range tree {
		if n.Role == "assistant" {
			firstAnswer = n.ID
			break
		}
	}
	f, err := s.Fork(context.Background(), protocol.ForkParams{At: strings.ToLower(firstAnswer), Name: "early"})
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := session.Messages(mustLoad(t, f.Info().Path))
	if len(msgs) != 2 {
		t.Fatalf("the fork holds %d messages, want the first prompt and answer", len(msgs))
	}
	// Select the first answer: the next input branches there.
	if _, err := s.Select(context.Background(), protocol.SelectParams{Ref: firstAnswer}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetModel(context.Background(), protocol.SetModelParams{Model: "mock/a.mock.json"}); err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "branch")
	leaves := 0
	for _, n := range s.Tree() {
		if n.Leaf {
			leaves++
		}
	}
	if leaves != 2 {
		t.Fatalf("%d leaves after branching, want 2", leaves)
	}
	if err := s.Label(context.Background(), firstAnswer, "first answer"); err != nil {
		t.Fatal(err)
	}
	labelled := false
	for _, n := range s.Tree() {
		labelled = labelled || n.ID == firstAnswer && n.Label == "first answer"
	}
	if !labelled {
		t.Error("the label is not in the tree")
	}
	if _, err := s.Fork(context.Background(), protocol.ForkParams{At: "ZZZZ"}); !errors.Is(err, ErrUsage) {
		t.Errorf("fork at an unknown entry = %v", err)
	}
}

func mustLoad(t *testing.T, path string) *sessionfmt.Session {
	t.Helper()
	s, _, err := sessionfmt.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func lastText(evs []protocol.Event) string {
	var out string
	for _, ev := range evs {
		if me, ok := ev.(protocol.MessageEnd); ok {
			if am, ok := me.Message.(model.AssistantMessage); ok {
				for _, c := range am.Content {
					if tx, ok := c.(model.Text); ok {
						out = tx.Text
					}
				}
			}
		}
	}
	return out
}

// TestCatalogOpensOnce: model resolution and the listing share one
// opening of the catalog, and an unreadable cache is reported once.
func TestCatalogOpensOnce(t *testing.T) {
	w := newWorld(t)
	w.config(`catalog-refresh "http://127.0.0.1:9/catalog.json"` + "\n")
	// A file where the cache directory belongs.
	if err := os.WriteFile(w.home+"/catalog-refresh", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes []string
	rt := w.open(nil, func(c *Config) { c.Notify = func(s string) { notes = append(notes, s) } })
	a, err := rt.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rt.Catalog()
	if a != b {
		t.Fatal("the second Catalog made another catalog")
	}
	if n := len(notes); n > 1 {
		t.Fatalf("the unreadable cache was reported %d times: %q", n, notes)
	}
}

// TestReadsDuringARun: the session's views (Info, State, Tree, Stats) and
// a fork are consistent while a run appends to the session (run under
// -race).
func TestReadsDuringARun(t *testing.T) {
	w := newWorld(t)
	w.write("slow.mock.json", `{"mock_script":1,"responses":[
		{"tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"echo a"}}]},
		{"tool_calls":[{"id":"c2","name":"bash","arguments":{"command":"echo b"}}]},
		{"text":"done"}]}`)
	rt := w.open(map[string]string{"model": "mock/slow.mock.json"}, nil)
	s, _ := rt.NewSession(context.Background(), NewSessionOptions{Name: "busy"})
	sub := s.Subscribe()
	defer sub.Close()
	if err := s.Submit(context.Background(), protocol.PromptParams{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		untilSettled(t, context.Background(), sub)
	}()
	forks := 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		_ = s.Info()
		_ = s.State()
		_ = s.Tree()
		_ = s.Stats()
		if forks < 3 && len(s.Tree()) > 3 {
			if _, err := s.Fork(context.Background(), protocol.ForkParams{}); err != nil {
				t.Fatal(err)
			}
			forks++
		}
	}
	if end, _ := s.Wait(context.Background()); end.Reason != protocol.EndCompleted {
		t.Fatalf("end %+v", end)
	}
}

// TestUnusableCacheIsANote: a cache directory that cannot be used makes
// the plugins compile in memory, with one note, and the turn still runs.
func TestUnusableCacheIsANote(t *testing.T) {
	w := newWorld(t)
	w.write("ok.mock.json", `{"mock_script":1,"responses":[{"text":"fine"}]}`)
	blocker := w.write("not-a-dir", "x")
	w.env["XDG_CACHE_HOME"] = blocker
	var notes []string
	var mu sync.Mutex
	rt := w.open(map[string]string{"model": "mock/ok.mock.json"}, func(c *Config) {
		c.Notify = func(s string) { mu.Lock(); notes = append(notes, s); mu.Unlock() }
	})
	s, _ := rt.NewSession(context.Background(), NewSessionOptions{Name: "c"})
	if lastText(runPrompt(t, s, "hi")) != "fine" {
		t.Fatal("no answer")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) != 1 || !strings.Contains(notes[0], blocker) {
		t.Fatalf("notes %q; want one naming %s", notes, blocker)
	}
}
