package agent

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/model"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// memRecorder records messages in memory; failAt (1-based) makes that
// record fail.
type memRecorder struct {
	mu     sync.Mutex
	msgs   []model.Message
	failAt int
	n      int
}

func (m *memRecorder) Record(ctx context.Context, msg model.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	if m.n == m.failAt {
		return errors.New("disk full")
	}
	m.msgs = append(m.msgs, msg)
	return nil
}

func (m *memRecorder) messages() []model.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]model.Message(nil), m.msgs...)
}

// funcTool is a tool whose behaviour is a function.
type funcTool struct {
	name   string
	schema string
	run    func(ctx context.Context, c *Call) (Result, error)
}

func (f *funcTool) Definition() model.ToolDefinition {
	s := f.schema
	if s == "" {
		s = `{"type":"object","properties":{"path":{"type":"string","minLength":1}},"required":["path"],"additionalProperties":false}`
	}
	return model.ToolDefinition{Name: f.name, Description: "test tool " + f.name, Parameters: json.RawMessage(s)}
}

func (f *funcTool) Execute(ctx context.Context, c *Call) (Result, error) { return f.run(ctx, c) }

func textResult(s string) Result {
	return Result{Content: []model.Content{model.Text{Text: s}}}
}

func script(t *testing.T, s string) *mockprovider.Provider {
	t.Helper()
	sc, err := mockprovider.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return mockprovider.New(sc)
}

func newAgent(t *testing.T, p model.Provider, rec Recorder, tools ...Tool) *Agent {
	t.Helper()
	a, err := New(Config{Provider: p, Model: "mock-model", System: "be brief", Recorder: rec, Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// drain collects a run's events and checks the invariants every run has:
// strictly increasing sequence numbers, agent_start first, exactly one
// agent_end and one settled, as the last two events.
func drain(t *testing.T, r *Run) []protocol.Event {
	t.Helper()
	var evs []protocol.Event
	for ev := range r.Events() {
		evs = append(evs, ev)
	}
	checkRunInvariants(t, evs)
	return evs
}

func checkRunInvariants(t *testing.T, evs []protocol.Event) {
	t.Helper()
	if len(evs) < 3 {
		t.Fatalf("run has %d events", len(evs))
	}
	if _, ok := evs[0].(protocol.AgentStart); !ok {
		t.Fatalf("first event %T", evs[0])
	}
	ends, settles := 0, 0
	for i, ev := range evs {
		if i > 0 && ev.Sequence() <= evs[i-1].Sequence() {
			t.Fatalf("sequence not increasing at %d: %d after %d", i, ev.Sequence(), evs[i-1].Sequence())
		}
		switch ev.(type) {
		case protocol.AgentEnd:
			ends++
		case protocol.Settled:
			settles++
		}
	}
	if ends != 1 || settles != 1 {
		t.Fatalf("agent_end x%d, settled x%d; want one each", ends, settles)
	}
	// Only what the settled handlers cause (diagnostics, queued input)
	// comes between agent_end and settled.
	k := len(evs) - 2
	for ; k > 0; k-- {
		switch evs[k].(type) {
		case protocol.Notice, protocol.QueueUpdate:
			continue
		}
		break
	}
	if _, ok := evs[k].(protocol.AgentEnd); !ok {
		t.Fatalf("event %d before settled (after any notices) is %T, want agent_end", k, evs[k])
	}
	if _, ok := evs[len(evs)-1].(protocol.Settled); !ok {
		t.Fatalf("last event %T", evs[len(evs)-1])
	}
}

// checkPairing asserts that in msgs every assistant tool call is answered,
// in call order, by the tool results that immediately follow the assistant
// message, and that no result is unpaired.
func checkPairing(t *testing.T, msgs []model.Message) {
	t.Helper()
	for i := 0; i < len(msgs); i++ {
		switch m := msgs[i].(type) {
		case model.AssistantMessage:
			for j, c := range m.ToolCalls() {
				k := i + 1 + j
				if k >= len(msgs) {
					t.Fatalf("call %s of message %d has no result", c.ID, i)
				}
				res, ok := msgs[k].(model.ToolResultMessage)
				if !ok || res.CallID != c.ID {
					t.Fatalf("message %d: want result for %s, got %#v", k, c.ID, msgs[k])
				}
			}
			i += len(m.ToolCalls())
		case model.ToolResultMessage:
			t.Fatalf("message %d: tool result %s not preceded by its call", i, m.CallID)
		}
	}
}

// brief renders an event as one short line for order assertions.
func brief(ev protocol.Event) string {
	switch e := ev.(type) {
	case protocol.AgentStart:
		return fmt.Sprintf("agent_start %d", e.Run)
	case protocol.TurnStart:
		return fmt.Sprintf("turn_start %d", e.Turn)
	case protocol.MessageStart:
		return "message_start " + describe(e.Message)
	case protocol.MessageUpdate:
		return "message_update " + model.StreamEventType(e.Delta)
	case protocol.MessageEnd:
		return "message_end " + describe(e.Message)
	case protocol.ToolExecutionStart:
		return "tool_execution_start " + e.CallID
	case protocol.ToolExecutionUpdate:
		return "tool_execution_update " + e.CallID
	case protocol.ToolExecutionEnd:
		return fmt.Sprintf("tool_execution_end %s %s", e.CallID, e.Result.Mutation)
	case protocol.TurnEnd:
		return fmt.Sprintf("turn_end %d results=%d", e.Turn, len(e.ToolResults))
	case protocol.QueueUpdate:
		return fmt.Sprintf("queue_update steer=%d follow_up=%d", len(e.Steer), len(e.FollowUp))
	case protocol.AgentEnd:
		return "agent_end " + string(e.Reason)
	case protocol.Settled:
		return "settled"
	}
	return protocol.EventType(ev)
}

func describe(m model.Message) string {
	switch m := m.(type) {
	case model.UserMessage:
		if len(m.Content) > 0 {
			if t, ok := m.Content[0].(model.Text); ok {
				return "user " + t.Text
			}
		}
		return "user"
	case model.AssistantMessage:
		if m.Error != nil {
			return "assistant error=" + string(m.Error.Kind)
		}
		if m.Stop == "" {
			return "assistant"
		}
		return "assistant " + string(m.Stop)
	case model.ToolResultMessage:
		return fmt.Sprintf("tool_result %s %s", m.CallID, m.Mutation)
	}
	return "?"
}

// briefs drops message_update lines (their count depends on chunking) unless
// keep is set.
func briefs(evs []protocol.Event, keepUpdates bool) []string {
	var out []string
	for _, ev := range evs {
		if _, ok := ev.(protocol.MessageUpdate); ok && !keepUpdates {
			continue
		}
		out = append(out, brief(ev))
	}
	return out
}

func wantLines(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// golden compares got with testdata/NAME.golden, rewriting it with -update.
func golden(t *testing.T, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", strings.ReplaceAll(t.Name(), "/", "_")+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if string(got) != string(want) {
		t.Fatalf("output differs from %s (run with -update if the change is intended):\n%s", path, got)
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
