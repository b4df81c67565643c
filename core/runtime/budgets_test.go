package runtime

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
)

// TestWithBudgets: a plugin block's budgets beat the artifact's (the
// manifest's hint, a system plugin's own), unset ones stay, and a block
// naming no plugin is a note.
func TestWithBudgets(t *testing.T) {
	at := config.Source{Layer: config.LayerUser, File: "smith.kdl", Line: 3, Col: 1}
	conf := &config.Config{PluginBudgets: map[string]*config.PluginBudget{
		"shout": {Name: "shout", Source: at, Timeout: config.Setting[time.Duration]{Value: 2 * time.Minute, Source: at},
			Memory: config.Setting[int64]{Value: 64 << 20, Source: at}},
		"tools": {Name: "tools", Source: at, Fuel: config.Setting[int64]{Value: 1 << 34, Source: at},
			Output: config.Setting[int64]{Value: 2 << 10, Source: at}, Log: config.Setting[int64]{Value: 4 << 10, Source: at}},
		"shuot": {Name: "shuot", Source: at},
	}}
	arts := []plugin.Artifact{{Name: "tools", Timeout: time.Hour}, {Name: "shout", Timeout: 10 * time.Second, MemoryPages: 16}}
	got, notes := withBudgets(arts, conf)
	if got[0].Timeout != time.Hour || got[0].Fuel != 1<<34 || got[0].MemoryPages != 0 || got[0].OutputBytes != 2<<10 || got[0].LogBytes != 4<<10 {
		t.Errorf("tools %+v", got[0])
	}
	if got[1].Timeout != 2*time.Minute || got[1].MemoryPages != 1024 || got[1].Fuel != 0 || got[1].OutputBytes != 0 || got[1].LogBytes != 0 {
		t.Errorf("shout %+v", got[1])
	}
	if arts[1].Timeout != 10*time.Second {
		t.Error("withBudgets changed its input")
	}
	if len(notes) != 1 || !strings.Contains(notes[0], `smith.kdl:3:1 sets the budgets of "shuot", which is not loaded (loaded: tools, shout)`) {
		t.Errorf("notes %q", notes)
	}
}

// TestPluginBudgetApplies: a plugin block's budget reaches the plugin's
// calls: the handler guest, given too little memory, fails its turn_end
// handler with the memory budget named, and is disabled; the run goes on.
func TestPluginBudgetApplies(t *testing.T) {
	w := newWorld(t)
	w.write("h.mock.json", mockScript(mockText("hello", 10, 1, 1)))
	guard := guardPlugin(t)
	withGuard := func(c *Config) { c.Plugins = append(c.Plugins, guard) }
	// A first start registers the plugin (its registration is cached and
	// does not depend on budgets), so the budget meets the plugin's call,
	// not its registration.
	if err := w.open(map[string]string{"model": "mock/h.mock.json"}, withGuard).Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.config("plugin \"guard\" {\n    memory \"1MiB\"\n}\n")
	rt := w.open(map[string]string{"model": "mock/h.mock.json"}, withGuard)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "hi")
	if e := agentEnd(evs); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	var notes []string
	for _, ev := range evs {
		if n, ok := ev.(protocol.Notice); ok {
			notes = append(notes, n.Text)
		}
	}
	if got := strings.Join(notes, "\n"); !strings.Contains(got, "plugin guard") || !strings.Contains(got, `raise its budget in smith.kdl: plugin "guard" { memory "256MiB" }`) {
		t.Fatalf("notices:\n%s", got)
	}
}

// TestPluginOutputBudget: a plugin block's output budget is the limit the
// plugin's tool calls are given: the read tool cuts a large file at it.
func TestPluginOutputBudget(t *testing.T) {
	w := newWorld(t)
	w.write("big.txt", strings.Repeat("line of text\n", 2000))
	w.write("o.mock.json", mockScript(`{"tool_calls":[{"id":"r1","name":"read","arguments":{"path":"big.txt"}}]}`, mockText("done", 10, 1, 1)))
	w.config("plugin \"tools\" {\n    output \"2KiB\"\n}\n")
	rt := w.open(map[string]string{"model": "mock/o.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "o"})
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "read it")
	for _, ev := range evs {
		if e, ok := ev.(protocol.ToolExecutionEnd); ok {
			text := model.TextOf(e.Result.Content)
			if len(text) > 2<<10 || !strings.Contains(text, "2048-byte tool output limit") {
				t.Fatalf("read returned %d bytes:\n%s", len(text), text)
			}
			return
		}
	}
	t.Fatal("no tool ran")
}
