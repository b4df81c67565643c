package toolbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
)

// TestPlugins: the shipped Source opens the seven built-in tools from the
// wasm plugin, and a call runs through the journal (intent, then
// completion) inside the project root.
func TestPlugins(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	store := &effect.MemStore{}
	j, _, err := effect.Open(ctx, store, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hi there\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := Plugins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := set.Close(ctx); err != nil {
			t.Error(err)
		}
	}()
	if err := os.WriteFile(filepath.Join(root, "debug.log"), []byte("noise\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tools, err := set.Bind(j, root, []string{"*.log"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var read agent.Tool
	for _, tool := range tools {
		names = append(names, tool.Definition().Name)
		if tool.Definition().Name == "read" {
			read = tool
		}
	}
	slices.Sort(names)
	if got := strings.Join(names, " "); got != "bash edit find grep ls read write" {
		t.Fatalf("tools = %s", got)
	}
	res, err := read.Execute(ctx, &agent.Call{ID: "call_1", Name: "read", Arguments: json.RawMessage(`{"path":"hello.txt"}`), Cwd: root})
	if err != nil || res.IsError {
		t.Fatalf("read = %+v, %v", res, err)
	}
	if text := res.Content[0].(model.Text).Text; !strings.Contains(text, "hi there") {
		t.Fatalf("read output = %q", text)
	}
	recs, err := store.Records(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("journal holds %d records, want an intent and its completion", len(recs))
	}
	if in, ok := recs[0].(effect.Intent); !ok || in.Parent != "call_1" {
		t.Fatalf("first record = %#v, want the intent caused by call_1", recs[0])
	}
	// The configured ignore pattern hides debug.log from find.
	for _, tool := range tools {
		if tool.Definition().Name != "find" {
			continue
		}
		res, err := tool.Execute(ctx, &agent.Call{ID: "call_2", Name: "find", Arguments: json.RawMessage(`{"pattern":"*"}`), Cwd: root})
		if err != nil || res.IsError {
			t.Fatalf("find = %+v, %v", res, err)
		}
		if text := res.Content[0].(model.Text).Text; text != "hello.txt" {
			t.Errorf("find * = %q; want only hello.txt (debug.log is ignored by the configured *.log)", text)
		}
	}
}

// TestPluginsLoadFailure: Plugins returns at once and loads in the
// background; a load failure (here an unusable cache directory) comes back
// from Bind, and Close still succeeds.
func TestPluginsLoadFailure(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-directory")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", file)
	ctx := context.Background()
	set, err := Plugins(ctx)
	if err != nil {
		t.Fatalf("Plugins = %v; want the failure deferred to Bind", err)
	}
	j, _, err := effect.Open(ctx, &effect.MemStore{}, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set.Bind(j, t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("Bind = %v; want the load failure naming %s", err, file)
	}
	if err := set.Close(ctx); err != nil {
		t.Errorf("Close after a failed load = %v", err)
	}
}
