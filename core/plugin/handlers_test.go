package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

var (
	guestMu    sync.Mutex
	guestBuilt = map[string][]byte{}
)

// guestWasm builds the Go test guest testdata/dir once per test binary.
func guestWasm(tb testing.TB, dir string) []byte {
	tb.Helper()
	build(tb) // for buildDir
	guestMu.Lock()
	defer guestMu.Unlock()
	if b, ok := guestBuilt[dir]; ok {
		return b
	}
	out := filepath.Join(buildDir, dir+".wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	cmd.Dir = filepath.Join("testdata", dir)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("build testdata/%s: %v\n%s", dir, err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	guestBuilt[dir] = b
	return b
}

// handlerArtifact is testdata/handlerguest as the plugin "guard".
func handlerArtifact(tb testing.TB) Artifact {
	tb.Helper()
	b := guestWasm(tb, "handlerguest")
	sum := sha256.Sum256(b)
	return Artifact{Name: "guard", Wasm: b, SHA256: hex.EncodeToString(sum[:]), Grants: []string{"ui"}}
}

// handlerWorld is the tools plugin and the handler guest in one
// generation, bound over a temporary project.
func handlerWorld(t *testing.T) (*bench, agent.Handlers) {
	t.Helper()
	return handlerWorldWith(t, Config{}, Effects{})
}

// handlerWorldWith is handlerWorld with the host configured by c (its
// cache directory set) and the tools bound to e (its journal and roots
// set).
func handlerWorldWith(t *testing.T, c Config, e Effects) (*bench, agent.Handlers) {
	t.Helper()
	build(t)
	c.CacheDir = filepath.Join(buildDir, "cache")
	h, err := Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	g, err := h.Load(context.Background(), []Artifact{artifact(t, "tools"), handlerArtifact(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	w := newBench(t, g, e)
	hs := w.b.Handlers()
	if hs == nil {
		t.Fatal("a generation whose plugin subscribes has no handlers")
	}
	return w, hs
}

// handlerRun runs one prompt against the mock script with the world's
// tools and handlers and returns the events and the agent.
func handlerRun(t *testing.T, w *bench, hs agent.Handlers, pub agent.Publisher, script, prompt string) ([]protocol.Event, *agent.Agent, *mockprovider.Provider) {
	t.Helper()
	sc, err := mockprovider.Parse([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	p := mockprovider.New(sc)
	a, err := agent.New(agent.Config{Provider: p, Tools: w.b.Tools(), Recorder: &memRecorder{}, Cwd: w.root, Handlers: hs, Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	run, err := a.Start(context.Background(), model.UserText(prompt))
	if err != nil {
		t.Fatal(err)
	}
	var evs []protocol.Event
	for ev := range run.Events() {
		evs = append(evs, ev)
	}
	return evs, a, p
}

type memRecorder struct {
	mu   sync.Mutex
	msgs []model.Message
}

func (m *memRecorder) Record(_ context.Context, msg model.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
	return nil
}

func endOf(evs []protocol.Event) protocol.AgentEnd {
	for _, ev := range evs {
		if e, ok := ev.(protocol.AgentEnd); ok {
			return e
		}
	}
	return protocol.AgentEnd{}
}

func noticeTexts(evs []protocol.Event) []string {
	var out []string
	for _, ev := range evs {
		if n, ok := ev.(protocol.Notice); ok {
			out = append(out, n.Text)
		}
	}
	return out
}

// TestPluginHandlerContinues: a plugin's turn_end handler queues input
// and continues; the agent sends the queued input as the next turn (the
// continuation coalesced with it: one request, not two), and the
// handler's continuation returned at settlement is diagnosed.
func TestPluginHandlerContinues(t *testing.T) {
	w, hs := handlerWorld(t)
	evs, _, p := handlerRun(t, w, hs, nil, `{"mock_script":1,"responses":[{"text":"please continue"},{"text":"done"}]}`, "hi")
	if e := endOf(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	reqs := p.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1].(model.UserMessage)
	if got := model.TextOf(last.Content); got != "go on, says handlerguest" {
		t.Fatalf("the second request ends with %q", got)
	}
	if n := noticeTexts(evs); len(n) != 1 || !strings.Contains(n[0], "plugin guard asked to continue a run that has ended") {
		t.Fatalf("notices %q", n)
	}
}

// TestPluginHandlerFollowUp: a message_start handler's queue-follow-up is
// delivered as a follow-up: after the model's answer, as one more turn of
// the same run.
func TestPluginHandlerFollowUp(t *testing.T) {
	w, hs := handlerWorld(t)
	evs, _, p := handlerRun(t, w, hs, nil, `{"mock_script":1,"responses":[{"text":"first"},{"text":"second"}]}`, "follow up please")
	if e := endOf(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	reqs := p.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	msgs := reqs[1].Messages
	if a, ok := msgs[len(msgs)-2].(model.AssistantMessage); !ok || model.TextOf(a.Content) != "first" {
		t.Fatalf("the follow-up did not wait for the answer: %+v", msgs)
	}
	if u, ok := msgs[len(msgs)-1].(model.UserMessage); !ok || model.TextOf(u.Content) != "a follow-up from handlerguest" {
		t.Fatalf("the second request ends with %+v", msgs[len(msgs)-1])
	}
}

// TestPluginHandlerDecides: tool_execution_start reaches the plugin as a
// required decision; its cancel-run stops the run before the call runs.
func TestPluginHandlerDecides(t *testing.T) {
	w, hs := handlerWorld(t)
	w.write(t, "secret.txt", "do not read\n")
	evs, _, _ := handlerRun(t, w, hs, nil, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"secret.txt"}}]},{"text":"never"}]}`, "read it")
	e := endOf(evs)
	if e.Reason != protocol.EndAborted || !strings.Contains(e.Error, "cancelled by plugin guard: handlerguest refuses secret.txt") {
		t.Fatalf("agent_end %+v", e)
	}
	for _, ev := range evs {
		if te, ok := ev.(protocol.ToolExecutionEnd); ok && !te.Result.IsError {
			t.Fatalf("the call ran: %+v", te.Result)
		}
	}
}

// TestPluginHandlerDeniesCall: a plugin's deny-call decision answers the
// call with an error result naming the plugin and its reason, before any
// effect; the run goes on to the model's next answer.
func TestPluginHandlerDeniesCall(t *testing.T) {
	w, hs := handlerWorld(t)
	evs, _, p := handlerRun(t, w, hs, nil, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"write","arguments":{"path":"private/x.txt","content":"x"}}]},{"text":"understood"}]}`, "write it")
	if e := endOf(evs); e.Reason != protocol.EndCompleted || len(p.Requests()) != 2 {
		t.Fatalf("agent_end %+v after %d requests", e, len(p.Requests()))
	}
	var res model.ToolResultMessage
	for _, ev := range evs {
		if te, ok := ev.(protocol.ToolExecutionEnd); ok {
			res = te.Result
		}
	}
	if !res.IsError || res.Mutation != model.MutationNotApplied || !strings.Contains(model.TextOf(res.Content), "denied by plugin guard: handlerguest keeps private/ closed") {
		t.Fatalf("result %+v", res)
	}
	if _, err := os.Stat(filepath.Join(w.root, "private")); !os.IsNotExist(err) {
		t.Fatalf("the denied write happened: %v", err)
	}
}

// TestPluginHandlerFailureDisables: a handler that traps is reported once
// and disabled for the generation: its later events are not delivered
// (no continuation, no settled diagnostic), and the run goes on.
func TestPluginHandlerFailureDisables(t *testing.T) {
	w, hs := handlerWorld(t)
	evs, _, p := handlerRun(t, w, hs, nil, `{"mock_script":1,"responses":[{"text":"TRAP, then please continue"},{"text":"never"}]}`, "hi")
	if e := endOf(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	n := noticeTexts(evs)
	if len(n) != 1 || !strings.Contains(n[0], "plugin guard: its message_end handler failed") || !strings.Contains(n[0], "disabled") {
		t.Fatalf("notices %q", n)
	}
	if len(p.Requests()) != 1 {
		t.Fatalf("%d requests: the disabled handler still continued the run", len(p.Requests()))
	}
	// Disabled for the generation: a decision it would have to make now
	// fails, and the run stops with handler_failed before the call.
	evs, _, _ = handlerRun(t, w, hs, nil, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"ls","arguments":{}}]},{"text":"never"}]}`, "list")
	if e := endOf(evs); e.Reason != protocol.EndHandlerFailed || !strings.Contains(e.Error, "plugin guard, which decides tool_execution_start, is disabled") {
		t.Fatalf("agent_end %+v", e)
	}
}

type recordingPublisher struct{ got []agent.Action }

func (r *recordingPublisher) Publish(_ context.Context, as []agent.Action) (*agent.Target, error) {
	r.got = append(r.got, as...)
	return nil, nil
}

// TestPluginHandlerSelectsModel: a select-model action reaches the
// publisher as provider/model at the safe point.
func TestPluginHandlerSelectsModel(t *testing.T) {
	w, hs := handlerWorld(t)
	pub := &recordingPublisher{}
	evs, _, _ := handlerRun(t, w, hs, pub, `{"mock_script":1,"responses":[{"text":"switch model"}]}`, "hi")
	if e := endOf(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	if len(pub.got) != 1 || pub.got[0].Kind != agent.ActionSelectModel || pub.got[0].Model != "mock/other" || pub.got[0].Plugin != "guard" {
		t.Fatalf("published %+v", pub.got)
	}
}

// TestPluginHandlerShapesRequests: add-context, replace-prompt and
// limit-output from a guest shape the run's next request.
func TestPluginHandlerShapesRequests(t *testing.T) {
	w, hs := handlerWorld(t)
	evs, _, p := handlerRun(t, w, hs, nil, `{"mock_script":1,"responses":[{"text":"keep it brief"},{"text":"ok"}]}`, "hi")
	if e := endOf(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	reqs := p.Requests()
	if len(reqs) != 2 || reqs[1].System != "You are terse.\n\nhandlerguest: the user is in a hurry" || reqs[1].MaxOutputTokens != 64 {
		t.Fatalf("%d requests; the second: system %q, limit %d", len(reqs), reqs[len(reqs)-1].System, reqs[len(reqs)-1].MaxOutputTokens)
	}
}

// TestNoHandlers: a generation whose plugins subscribe to nothing has no
// handlers, so the agent delivers nothing.
func TestNoHandlers(t *testing.T) {
	w := newBench(t, shared(t), Effects{})
	if hs := w.b.Handlers(); hs != nil {
		t.Fatalf("Handlers() = %v, want nil", hs)
	}
}

// TestEveryEventKindMapped: each event kind of the world (but unknown)
// is the kind of exactly one protocol event type.
func TestEveryEventKindMapped(t *testing.T) {
	seen := map[pluginabi.EventKind]string{}
	for typ, k := range eventKinds {
		if !slices.Contains(protocol.EventTypes, typ) {
			t.Errorf("eventKinds maps %q, which is not a protocol event type", typ)
		}
		if prev, dup := seen[k]; dup {
			t.Errorf("%s and %s map to the same kind %v", prev, typ, k)
		}
		seen[k] = typ
	}
	for k := pluginabi.EventKindAgentStart; k < pluginabi.EventKindUnknown; k++ {
		if _, ok := seen[k]; !ok {
			t.Errorf("the world's event kind %v has no protocol event type", k)
		}
	}
}
