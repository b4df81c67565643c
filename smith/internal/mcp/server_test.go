package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smith-agent/smith/core/protocol"
)

// TestListTools: the session's tools are the MCP tools, with the
// runtime's schemas, and the instructions name the session.
func TestListTools(t *testing.T) {
	w := newWorld(t)
	cs, srv, _ := inProcess(t, w, "listing", nil)
	ctx := bounded(t)
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := srv.o.Session.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(want) {
		t.Fatalf("%d MCP tools, the session has %d", len(res.Tools), len(want))
	}
	for i, tl := range res.Tools {
		got, _ := json.Marshal(tl.InputSchema)
		var a, b any
		_ = json.Unmarshal(got, &a)
		_ = json.Unmarshal(want[i].Parameters, &b)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if tl.Name != want[i].Name || tl.Description != want[i].Description || !bytes.Equal(ja, jb) {
			t.Errorf("tool %d: %s %s, want %s %s", i, tl.Name, ja, want[i].Name, jb)
		}
	}
	instr := cs.InitializeResult().Instructions
	info := srv.o.Session.Info()
	if !strings.Contains(instr, "listing ("+info.ID+")") || !strings.Contains(instr, w.project) {
		t.Errorf("instructions %q do not name the session and the directory", instr)
	}
}

// TestCallTool: calls and their failures as an MCP client sees them.
func TestCallTool(t *testing.T) {
	w := newWorld(t)
	cs, _, _ := inProcess(t, w, "calls", nil)
	cases := []struct {
		name     string
		tool     string
		args     any
		rpcErr   string // a JSON-RPC error containing this
		isError  bool
		text     string
		mutation string
	}{
		{name: "read", tool: "read", args: map[string]any{"path": "hello.txt"}, text: "hello from the project", mutation: "applied"},
		{name: "bash", tool: "bash", args: map[string]any{"command": "echo one; echo two"}, text: "one\ntwo\n[exit code 0]", mutation: "applied"},
		{name: "write", tool: "write", args: map[string]any{"path": "out.txt", "content": "x\n"}, text: "", mutation: "applied"},
		{name: "unknown tool", tool: "nope", args: map[string]any{}, rpcErr: `tool "nope" is not available; available tools: bash, edit`},
		{name: "bad arguments", tool: "read", args: map[string]any{"paht": "x"}, isError: true,
			text: `its arguments do not match the schema: at /: missing required property "path"; at /paht: unknown property "paht"`, mutation: "not_applied"},
		{name: "path outside the working directory", tool: "read", args: map[string]any{"path": "../../etc/passwd"}, isError: true,
			text: "outside the allowed project directories", mutation: "not_applied"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cs.CallTool(bounded(t), &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if tc.rpcErr != "" {
				var we *jsonrpc.Error
				if !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams || !strings.Contains(we.Message, tc.rpcErr) {
					t.Fatalf("err = %v, want invalid params containing %q", err, tc.rpcErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tc.isError || !strings.Contains(textOf(res.Content), tc.text) || res.Meta["smith/mutation"] != tc.mutation ||
				!strings.HasPrefix(res.Meta["smith/call_id"].(string), "mcp:") {
				t.Fatalf("result error=%v meta=%v text %q; want error=%v, mutation %s, text containing %q", res.IsError, res.Meta, textOf(res.Content), tc.isError, tc.mutation, tc.text)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(w.project, "out.txt")); err != nil || string(b) != "x\n" {
		t.Errorf("write left %q, %v", b, err)
	}
}

// TestProgressAndCancel: with a progress token, a command's output
// arrives as progress notifications while it runs; cancelling the
// request stops the command promptly, and its outcome is journaled.
func TestProgressAndCancel(t *testing.T) {
	w := newWorld(t)
	var mu sync.Mutex
	var msgs []string
	first := make(chan struct{}, 1)
	opts := &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		msgs = append(msgs, r.Params.Message)
		mu.Unlock()
		select {
		case first <- struct{}{}:
		default:
		}
	}}
	cs, _, rt := inProcess(t, w, "progress", opts)

	// A command that ends: every line arrives, in order.
	p := &sdk.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "for i in 1 2 3; do echo line$i; sleep 0.1; done"}}
	p.SetProgressToken("tok-1")
	res, err := cs.CallTool(bounded(t), p)
	if err != nil || res.IsError {
		t.Fatalf("%v %v", res, err)
	}
	mu.Lock()
	got := strings.Join(msgs, "")
	msgs = nil
	mu.Unlock()
	if got != "line1\nline2\nline3\n" {
		t.Errorf("progress %q", got)
	}
	<-first

	// A command cancelled mid-way.
	ctx, cancel := context.WithCancel(bounded(t))
	p = &sdk.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "echo started; sleep 30"}}
	p.SetProgressToken(7)
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, p)
		done <- err
	}()
	select {
	case <-first:
	case <-time.After(time.Minute):
		t.Fatal("no progress within a minute")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the cancelled call did not return")
	}
	// The command's outcome is journaled once it is stopped.
	deadline := time.Now().Add(time.Minute)
	for {
		var b bytes.Buffer
		if err := rt.Transcript(bounded(t), &b, "progress", protocol.TranscriptJSONL); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), `"parent":"mcp:2"`) && strings.Contains(b.String(), `"mutation":"unknown"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled command's outcome is not journaled:\n%s", b.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestResources: every session is listed as two resources, and both read
// through the runtime.
func TestResources(t *testing.T) {
	w := newWorld(t)
	cs, srv, _ := inProcess(t, w, "resources", nil)
	ctx := bounded(t)
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"path": "hello.txt"}}); err != nil {
		t.Fatal(err)
	}
	id := srv.o.Session.Info().ID
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI+" "+r.MIMEType)
	}
	for _, want := range []string{SessionURI(id, protocol.TranscriptMarkdown) + " text/markdown", SessionURI(id, protocol.TranscriptJSONL) + " application/jsonl"} {
		if !slices.Contains(uris, want) {
			t.Errorf("resources %v lack %s", uris, want)
		}
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) != 2 {
		t.Errorf("templates %v, %v", tmpl, err)
	}
	cases := []struct {
		name, uri, mime, contains string
	}{
		{"markdown", SessionURI(id, protocol.TranscriptMarkdown), MIMEMarkdown, "# Session resources (" + id + ")"},
		{"jsonl", SessionURI(id, protocol.TranscriptJSONL), MIMEJSONL, `"parent":"mcp:1"`},
		{"by name", "smith://sessions/resources/transcript.md", MIMEMarkdown, "- directory: `" + w.project + "`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cs.ReadResource(bounded(t), &sdk.ReadResourceParams{URI: tc.uri})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Contents) != 1 || res.Contents[0].MIMEType != tc.mime || !strings.Contains(res.Contents[0].Text, tc.contains) {
				t.Fatalf("contents %+v, want %s containing %q", res.Contents, tc.mime, tc.contains)
			}
		})
	}
	for _, uri := range []string{"smith://sessions/nosuch/transcript.md", "smith://sessions/" + id + "/transcript.html", "file:///etc/passwd"} {
		if _, err := cs.ReadResource(bounded(t), &sdk.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("read %s: err = %v, want not found", uri, err)
		}
	}
}

// TestStdioBinary: the real `smith mcp` over its pipes, with the SDK's
// client: stdout carries only MCP frames, stderr names the session, and a
// tool call is recorded in it.
func TestStdioBinary(t *testing.T) {
	w := newWorld(t)
	cmd := exec.Command(smithBin, "mcp", "--session", "stdio-test")
	cmd.Dir = w.project
	cmd.Env = w.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	ctx := bounded(t)
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%v; stderr:\n%s", err, stderr.String())
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"path": "hello.txt"}})
	if err != nil || !strings.Contains(textOf(res.Content), "hello from the project") {
		t.Fatalf("read: %v %v", res, err)
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "session stdio-test (") {
		t.Errorf("instructions %q", cs.InitializeResult().Instructions)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v; stderr:\n%s", err, stderr.String())
	}
	log := stderr.String()
	for _, want := range []string{"smith mcp: serving " + w.project + " over stdio; tool calls are recorded in session stdio-test (", "tools/call read (mcp:1): applied"} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr lacks %q:\n%s", want, log)
		}
	}
	show := exec.Command(smithBin, "session", "show", "stdio-test")
	show.Env = w.env()
	out, err := show.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "messages 0, effect intents 1, effect completions 1") {
		t.Errorf("session show: %v\n%s", err, out)
	}
}

// TestCallToolDecidedByPolicy: the permission policy decides an MCP call
// as it decides the model's: a deny rule of the user's smith.kdl refuses
// it before any effect, naming the rule; other calls run.
func TestCallToolDecidedByPolicy(t *testing.T) {
	w := newWorld(t)
	if err := os.WriteFile(filepath.Join(w.home, "smith.kdl"), []byte("permissions {\n    deny \"bash\" \"rm *\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _, _ := inProcess(t, w, "policy", nil)
	res, err := cs.CallTool(bounded(t), &sdk.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "rm hello.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(textOf(res.Content), `deny "bash" "rm *"`) || res.Meta["smith/mutation"] != "not_applied" {
		t.Fatalf("a denied call: error=%v meta=%v %q", res.IsError, res.Meta, textOf(res.Content))
	}
	if _, err := os.Stat(filepath.Join(w.project, "hello.txt")); err != nil {
		t.Fatalf("the denied command ran: %v", err)
	}
	if res, err := cs.CallTool(bounded(t), &sdk.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "echo ok"}}); err != nil || res.IsError {
		t.Fatalf("an allowed call: %v %v", res, err)
	}
}
