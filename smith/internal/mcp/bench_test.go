package mcp

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCallRead: one MCP tools/call of read, end to end and warm:
// the SDK client, the in-memory transport, the server, the runtime's
// schema check, the plugin's read and its journaled effect (an fsynced
// intent) and back.
func BenchmarkCallRead(b *testing.B) {
	w := newWorld(b)
	cs, _, _ := inProcess(b, w, "bench", nil)
	benchRead(b, cs)
}

// BenchmarkCallReadStdio: the same through the real binary's pipes.
func BenchmarkCallReadStdio(b *testing.B) {
	w := newWorld(b)
	cmd := exec.Command(smithBin, "mcp", "--session", "bench")
	cmd.Dir = w.project
	cmd.Env = w.env()
	c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := c.Connect(bounded(b), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	benchRead(b, cs)
}

func benchRead(b *testing.B, cs *sdk.ClientSession) {
	ctx := context.Background()
	p := &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"path": "hello.txt"}}
	for range 3 { // warm: the plugin compiled, its instance pooled
		if _, err := cs.CallTool(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(ctx, p)
		if err != nil || res.IsError || !strings.Contains(textOf(res.Content), "hello") {
			b.Fatalf("%v %v", res, err)
		}
	}
}
