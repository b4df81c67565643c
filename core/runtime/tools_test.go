package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
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

func toolsTestText(cs []model.Content) string {
	var b strings.Builder
	for _, c := range cs {
		if t, ok := c.(model.Text); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// TestTools: the session lists the built-in tools with their schemas, in
// name order.
func TestTools(t *testing.T) {
	w := newWorld(t)
	rt := w.open(nil, func(c *Config) { c.Ephemeral = true })
	s, err := rt.NewSession(context.Background(), NewSessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := s.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
		var schema map[string]any
		if err := json.Unmarshal(tl.Parameters, &schema); err != nil || schema["type"] != "object" || tl.Description == "" {
			t.Errorf("tool %s: description %q, schema %s (%v)", tl.Name, tl.Description, tl.Parameters, err)
		}
	}
	for _, want := range []string{"bash", "edit", "read", "write"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("tools %v are not in name order", names)
	}
}

// TestCallTool: calls through the session's tools, their failures and
// the errors of a call the session cannot make.
func TestCallTool(t *testing.T) {
	w := newWorld(t)
	w.write("hello.txt", "hi there\n")
	rt := w.open(nil, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "tools"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	cases := []struct {
		name     string
		p        protocol.CallToolParams
		usage    string // an error wrapping ErrUsage containing this
		isError  bool
		mutation model.Mutation
		text     string
	}{
		{name: "read", p: protocol.CallToolParams{CallID: "mcp:1", Name: "read", Arguments: json.RawMessage(`{"path":"hello.txt"}`)},
			mutation: model.MutationApplied, text: "hi there"},
		{name: "bash", p: protocol.CallToolParams{CallID: "mcp:2", Name: "bash", Arguments: json.RawMessage(`{"command":"echo out; echo err >&2"}`)},
			mutation: model.MutationApplied, text: "out\nerr\n[exit code 0]"},
		{name: "unknown tool", p: protocol.CallToolParams{CallID: "mcp:3", Name: "nope"}, usage: `tool "nope" is not available; available tools: bash, edit`},
		{name: "call id without a frontend", p: protocol.CallToolParams{CallID: "call_1", Name: "read"}, usage: `tool call id "call_1" names no frontend`},
		{name: "arguments against the schema", p: protocol.CallToolParams{CallID: "mcp:4", Name: "read", Arguments: json.RawMessage(`{"paht":"x"}`)},
			isError: true, mutation: model.MutationNotApplied, text: `its arguments do not match the schema: at /: missing required property "path"`},
		{name: "arguments not JSON", p: protocol.CallToolParams{CallID: "mcp:5", Name: "read", Arguments: json.RawMessage(`{"path":`)},
			isError: true, mutation: model.MutationNotApplied, text: `tool "read" was not run`},
		{name: "no arguments", p: protocol.CallToolParams{CallID: "mcp:6", Name: "read"},
			isError: true, mutation: model.MutationNotApplied, text: `missing required property "path"`},
		{name: "path outside the working directory", p: protocol.CallToolParams{CallID: "mcp:7", Name: "read", Arguments: json.RawMessage(`{"path":"/etc/hostname"}`)},
			isError: true, mutation: model.MutationNotApplied, text: "outside the allowed project directories"},
		{name: "failing command", p: protocol.CallToolParams{CallID: "mcp:8", Name: "bash", Arguments: json.RawMessage(`{"command":"exit 3"}`)},
			isError: true, mutation: model.MutationApplied, text: "exit code 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.CallTool(context.Background(), tc.p, nil)
			if tc.usage != "" {
				if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.usage) {
					t.Fatalf("err = %v, want a usage error containing %q", err, tc.usage)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.isError || res.Mutation != tc.mutation || !strings.Contains(toolsTestText(res.Content), tc.text) || res.CallID != tc.p.CallID {
				t.Fatalf("result %+v (%q), want error %v, mutation %s, text containing %q", res, toolsTestText(res.Content), tc.isError, tc.mutation, tc.text)
			}
		})
	}
}

// TestCallToolRecords: a call's effects are journaled in the session with
// the call id as their parent, and nothing enters the conversation, so a
// later run continues a valid one.
func TestCallToolRecords(t *testing.T) {
	w := newWorld(t)
	w.write("hello.txt", "hi\n")
	w.write("read.mock.json", readScript)
	rt := w.open(map[string]string{"model": "mock/read.mock.json"}, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "mixed"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CallTool(context.Background(), protocol.CallToolParams{CallID: "mcp:1", Name: "write", Arguments: json.RawMessage(`{"path":"new.txt","content":"made by mcp\n"}`)}, nil); err != nil {
		t.Fatal(err)
	}
	var jsonl bytes.Buffer
	if err := rt.Transcript(context.Background(), &jsonl, "mixed", protocol.TranscriptJSONL); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(jsonl.String(), `"parent":"mcp:1"`) || !strings.Contains(jsonl.String(), `"kind":"effect_completion"`) {
		t.Fatalf("the journal lacks the call's effect:\n%s", jsonl.String())
	}
	// The model's run still works from a conversation holding no result
	// of a call it did not make.
	evs := runPrompt(t, s, "What does hello.txt say?")
	if end, _ := s.Wait(context.Background()); end.Reason != protocol.EndCompleted {
		t.Fatalf("run ended %+v; events %v", end, types(evs))
	}
	path := s.Info().Path
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	sess, _, err := sessionfmt.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := session.Messages(sess)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if r, ok := m.(model.ToolResultMessage); ok && strings.HasPrefix(r.CallID, "mcp:") {
			t.Errorf("the conversation holds the MCP call's result %+v", r)
		}
	}
	if len(msgs) != 4 {
		t.Errorf("conversation has %d messages, want the run's 4", len(msgs))
	}
	var md bytes.Buffer
	if err := rt.Transcript(context.Background(), &md, "mixed", protocol.TranscriptMarkdown); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Session mixed (", "## User\n\nWhat does hello.txt say?\n\n## Assistant", "Tool call `read` (call_1)", "## Tool result `read` (call_1; applied)", "It says hi.",
		"## MCP tool call (mcp:1)\n\nNot part of the conversation; its effects are journaled:\n\n- `fs.write` `{", "new.txt", "}` → applied\n\n## User"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown transcript lacks %q:\n%s", want, md.String())
		}
	}
	if err := rt.Transcript(context.Background(), &md, "nosuch", protocol.TranscriptMarkdown); !errors.Is(err, ErrUsage) {
		t.Errorf("unknown session: err = %v, want a usage error", err)
	}
	if err := rt.Transcript(context.Background(), &md, "mixed", "html"); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), `"html"`) {
		t.Errorf("unknown format: err = %v", err)
	}
}

// TestCallToolProgressAndCancel: a command's output arrives as progress
// while it runs; cancelling the context stops it, and the outcome is
// journaled.
func TestCallToolProgressAndCancel(t *testing.T) {
	w := newWorld(t)
	rt := w.open(nil, nil)
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "cancel"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var got strings.Builder
	first := make(chan struct{})
	var once sync.Once
	progress := func(p []model.Content) {
		mu.Lock()
		got.WriteString(toolsTestText(p))
		mu.Unlock()
		once.Do(func() { close(first) })
	}
	type ret struct {
		res model.ToolResultMessage
		err error
	}
	done := make(chan ret, 1)
	go func() {
		res, err := s.CallTool(ctx, protocol.CallToolParams{CallID: "mcp:9", Name: "bash", Arguments: json.RawMessage(`{"command":"echo started; sleep 30; echo never"}`)}, progress)
		done <- ret{res, err}
	}()
	select {
	case <-first:
	case <-time.After(time.Minute):
		t.Fatal("no progress within a minute")
	}
	cancel()
	var r ret
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the cancelled call did not return within a minute")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	mu.Lock()
	streamed := got.String()
	mu.Unlock()
	if streamed != "started\n" {
		t.Errorf("progress %q, want the output so far", streamed)
	}
	if !r.res.IsError || r.res.Mutation != model.MutationUnknown || !strings.Contains(toolsTestText(r.res.Content), "cancelled") || strings.Contains(toolsTestText(r.res.Content), "never") {
		t.Errorf("result %+v (%q)", r.res, toolsTestText(r.res.Content))
	}
	var jsonl bytes.Buffer
	if err := rt.Transcript(context.Background(), &jsonl, "cancel", protocol.TranscriptJSONL); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(jsonl.String(), `"parent":"mcp:9"`) || !strings.Contains(jsonl.String(), `"mutation":"unknown"`) {
		t.Errorf("the cancelled command is not journaled:\n%s", jsonl.String())
	}
}

// BenchmarkCallToolRead: one warm read through Session.CallTool: the
// schema check, the plugin call and its journaled (fsynced) effect.
func BenchmarkCallToolRead(b *testing.B) {
	w := &world{project: b.TempDir(), home: b.TempDir(), env: map[string]string{"HOME": b.TempDir(), "XDG_CACHE_HOME": cache}}
	if err := os.WriteFile(filepath.Join(w.project, "hello.txt"), []byte("hi\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg := Config{Cwd: w.project, Home: w.home, Plugins: systemPlugins(b), Version: "bench",
		LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok }}
	rt, err := Open(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close(context.Background())
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close(context.Background())
	p := protocol.CallToolParams{CallID: "mcp:1", Name: "read", Arguments: json.RawMessage(`{"path":"hello.txt"}`)}
	for range 3 {
		if _, err := s.CallTool(context.Background(), p, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := s.CallTool(context.Background(), p, nil)
		if err != nil || res.IsError {
			b.Fatalf("%+v %v", res, err)
		}
	}
}
