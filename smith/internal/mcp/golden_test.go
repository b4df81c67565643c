package mcp

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smith-agent/smith/core/protocol"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/NAME.golden (rewritten with -update).
func golden(t *testing.T, got string) {
	t.Helper()
	path := filepath.Join("testdata", t.Name()+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v; run go test -run %s -update to create it", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -run %s -update rewrites it):\n--- got\n%s\n--- want\n%s", path, t.Name(), got, want)
	}
}

// TestTranscriptGolden: the Markdown resource of a session in which an MCP
// client wrote a file, ran a command and read a path outside the project.
func TestTranscriptGolden(t *testing.T) {
	w := newWorld(t)
	cs, srv, _ := inProcess(t, w, "golden", nil)
	ctx := bounded(t)
	for _, p := range []*sdk.CallToolParams{
		{Name: "write", Arguments: map[string]any{"path": "notes.txt", "content": "from ``mcp``\n"}},
		{Name: "bash", Arguments: map[string]any{"command": "cat notes.txt"}},
		{Name: "read", Arguments: map[string]any{"path": "/smith-mcp-golden-outside.txt"}},
	} {
		if _, err := cs.CallTool(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	id := srv.o.Session.Info().ID
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: SessionURI(id, protocol.TranscriptMarkdown)})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.NewReplacer(id, "SESSION-ID", w.project, "PROJECT").Replace(res.Contents[0].Text)
	golden(t, got)
}
