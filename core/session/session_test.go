package session

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

const crashEnv = "SMITH_SESSION_TEST_CRASH_HELPER"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		crashHelper(path)
		return
	}
	os.Exit(m.Run())
}

// writeTool writes a file under dir through the effect journal.
type writeTool struct {
	dir string
	j   *effect.Journal
	// block, when set, is closed by the tool once its intent is durable;
	// the tool then waits forever (to be killed).
	block chan<- struct{}
}

func (w *writeTool) Definition() model.ToolDefinition {
	return model.ToolDefinition{Name: "write", Description: "write a file",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"],"additionalProperties":false}`)}
}

func (w *writeTool) Execute(ctx context.Context, c *agent.Call) (agent.Result, error) {
	var args struct{ Path, Content string }
	if err := json.Unmarshal(c.Arguments, &args); err != nil {
		return agent.Result{}, err
	}
	comp, err := w.j.Run(ctx, effect.Intent{Kind: "fs.write", Parent: c.ID, Input: c.Arguments}, func(ctx context.Context) effect.Outcome {
		if w.block != nil {
			close(w.block)
			select {}
		}
		if err := os.WriteFile(filepath.Join(w.dir, args.Path), []byte(args.Content), 0o644); err != nil {
			return effect.Outcome{Mutation: model.MutationNotApplied, Err: err}
		}
		return effect.Outcome{Output: []byte(fmt.Sprintf("wrote %d bytes", len(args.Content)))}
	})
	if err != nil {
		return agent.Result{Mutation: comp.Mutation}, err
	}
	return agent.Result{Mutation: comp.Mutation, Content: []model.Content{model.Text{Text: string(comp.Output)}}}, nil
}

const writeScript = `{"mock_script":1,"responses":[
  {"tool_calls":[{"id":"call_1","name":"write","arguments":{"path":"out.txt","content":"hi"}}]},
  {"text":"Wrote out.txt."}]}`

func provider(t testing.TB, s string) *mockprovider.Provider {
	t.Helper()
	sc, err := mockprovider.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return mockprovider.New(sc)
}

func drain(r *agent.Run) protocol.AgentEnd {
	for range r.Events() {
	}
	return r.Wait()
}

func kinds(sess *sessionfmt.Session) string {
	var ks []string
	for _, i := range sess.History(sess.Selected(), nil) {
		ks = append(ks, sess.Kind(i).String())
	}
	return strings.Join(ks, " ")
}

// TestToolTurnIntoSessionFile runs a tool-using turn whose tool writes a
// real file through the journal, into a real session file, and reads the
// file back: messages and effects are in order, the intent names the
// assistant message as its cause, and the conversation decodes to what the
// agent holds.
func TestToolTurnIntoSessionFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.session")
	f, err := sessionfmt.Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	j, _, err := effect.Open(context.Background(), st, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Config{Provider: provider(t, writeScript), Recorder: st, Tools: []agent.Tool{&writeTool{dir: dir, j: j}}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := a.Start(context.Background(), model.UserText("write hi to out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if end := drain(run); end.Reason != protocol.EndCompleted {
		t.Fatalf("end = %+v", end)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(b) != "hi" {
		t.Fatalf("out.txt = %q, %v", b, err)
	}

	sess, rep, err := sessionfmt.Load(path, nil)
	if err != nil || rep.Damaged() {
		t.Fatalf("load: %v %+v", err, rep)
	}
	if got := kinds(sess); got != "message message effect_intent effect_completion message message" {
		t.Fatalf("kinds = %s", got)
	}
	hist := sess.History(sess.Selected(), nil)
	intent := sess.Entry(hist[2])
	if intent.Cause != sess.ID(hist[1]) || intent.Pair != sess.Entry(hist[3]).Pair {
		t.Fatalf("intent cause %s pair %s; want cause %s and the completion's pair", intent.Cause, intent.Pair, sess.ID(hist[1]))
	}
	msgs, err := Messages(sess)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(msgs)
	want, _ := json.Marshal(a.Messages())
	if string(got) != string(want) {
		t.Fatalf("decoded messages\n%s\nwant\n%s", got, want)
	}
	info, _ := os.Stat(path)
	t.Logf("session file after one tool-using turn: %d bytes", info.Size())
}

// TestIntentFailureOnAClosedFilePreventsTheEffect: when the session cannot
// take the intent, the effect does not run.
func TestIntentFailureOnAClosedFilePreventsTheEffect(t *testing.T) {
	dir := t.TempDir()
	f, err := sessionfmt.Create(filepath.Join(dir, "s.session"), nil)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := New(f)
	if err := st.Record(context.Background(), model.AssistantMessage{Stop: model.StopToolUse, Content: []model.Content{
		model.ToolCall{ID: "c1", Name: "write", Arguments: json.RawMessage(`{}`)}}}); err != nil {
		t.Fatal(err)
	}
	j, _, err := effect.Open(context.Background(), st, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	ran := false
	_, err = j.Run(context.Background(), effect.Intent{Kind: "fs.write", Parent: "c1"}, func(context.Context) effect.Outcome {
		ran = true
		return effect.Outcome{}
	})
	if ran || err == nil || !strings.Contains(err.Error(), "the effect was not run") {
		t.Fatalf("ran=%v err=%v", ran, err)
	}
}

func TestIntentNeedsAKnownCause(t *testing.T) {
	f, err := sessionfmt.Create(filepath.Join(t.TempDir(), "s.session"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := New(f)
	j, _, _ := effect.Open(context.Background(), st, effect.Options{})
	for _, tt := range []struct{ name, parent, want string }{
		{"empty", "", "effect intent has no causal parent"},
		{"unknown call", "call_9", `causal parent "call_9" is neither a recorded tool call nor an entry`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := j.Run(context.Background(), effect.Intent{Kind: "k", Parent: tt.parent}, func(context.Context) effect.Outcome {
				t.Fatal("ran")
				return effect.Outcome{}
			})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// crashHelper runs in a child process: it opens the session, starts a
// tool-using run whose tool blocks after its intent is durable, prints
// "ready" and waits to be killed.
func crashHelper(path string) {
	f, err := sessionfmt.Open(path, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	st, err := New(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	j, _, err := effect.Open(context.Background(), st, effect.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	sc, _ := mockprovider.Parse([]byte(writeScript))
	blocked := make(chan struct{})
	a, err := agent.New(agent.Config{Provider: mockprovider.New(sc), Recorder: st,
		Tools: []agent.Tool{&writeTool{dir: filepath.Dir(path), j: j, block: blocked}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	run, err := a.Start(context.Background(), model.UserText("write hi to out.txt"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	go func() {
		for range run.Events() {
		}
	}()
	<-blocked
	fmt.Println("ready")
	select {}
}

// TestKilledMidEffectRecoversUnknown: a child process is SIGKILLed while
// its tool's effect runs (intent durable, no completion). Reopening the
// session completes the effect as unknown without retrying it, and the next
// run pairs the interrupted call with an unknown result before new input.
func TestKilledMidEffectRecoversUnknown(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.session")
	f, err := sessionfmt.Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "ready\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("child said %q, %v", line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("child exit = %v", err)
	}

	f, err = sessionfmt.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := kinds(f.Session()); got != "message message effect_intent" {
		t.Fatalf("after the kill: %s", got)
	}
	st, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	j, recovered, err := effect.Open(context.Background(), st, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recovered) != 1 || recovered[0].Mutation != model.MutationUnknown || !recovered[0].Recovered {
		t.Fatalf("recovered = %+v", recovered)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.txt")); !os.IsNotExist(err) {
		t.Fatalf("out.txt exists (%v): the effect was retried or ran", err)
	}
	if got := kinds(f.Session()); got != "message message effect_intent effect_completion" {
		t.Fatalf("after recovery: %s (no new intent may appear)", got)
	}

	history, err := Messages(f.Session())
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Config{Provider: provider(t, `{"mock_script":1,"responses":[{"text":"I could not confirm the write."}]}`),
		Recorder: st, History: history, Tools: []agent.Tool{&writeTool{dir: dir, j: j}}})
	if err != nil {
		t.Fatal(err)
	}
	run, _ := a.Start(context.Background(), model.UserText("did it work?"))
	if end := drain(run); end.Reason != protocol.EndCompleted {
		t.Fatalf("end = %+v", end)
	}
	if got := kinds(f.Session()); got != "message message effect_intent effect_completion message message message" {
		t.Fatalf("after resume: %s", got)
	}
	msgs, _ := Messages(f.Session())
	res, ok := msgs[2].(model.ToolResultMessage)
	if !ok || res.CallID != "call_1" || res.Mutation != model.MutationUnknown {
		t.Fatalf("message after the interrupted call = %#v", msgs[2])
	}
}

// TestIntentWithoutParentIsCausedByTheLeaf: an intent naming no parent (a
// provider exchange) is recorded with the selected leaf, the message the
// request continues from, as its cause.
func TestIntentWithoutParentIsCausedByTheLeaf(t *testing.T) {
	f, err := sessionfmt.Create(filepath.Join(t.TempDir(), "s.session"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.Record(ctx, model.UserText("hi")); err != nil {
		t.Fatal(err)
	}
	leaf := f.Session().ID(f.Session().Selected())
	j, _, err := effect.Open(ctx, st, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Run(ctx, effect.Intent{Kind: "provider.exchange"}, func(context.Context) effect.Outcome { return effect.Outcome{} }); err != nil {
		t.Fatal(err)
	}
	sess := f.Session()
	for i := range sess.Len() {
		if sess.Kind(i) == sessionfmt.KindEffectIntent {
			if got := sess.Entry(i).Cause; got != leaf {
				t.Fatalf("intent cause = %s, want the leaf %s", got, leaf)
			}
			return
		}
	}
	t.Fatal("no intent recorded")
}
