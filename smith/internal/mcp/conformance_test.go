package mcp

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mcpclientDir is the pinned TypeScript SDK client and its script.
var mcpclientDir = filepath.Join("..", "..", "..", "tools", "mcpclient")

// TestConformanceTypeScript: the official MCP TypeScript SDK client
// (npm @modelcontextprotocol/sdk, pinned in tools/mcpclient) drives the
// real binary over stdio: initialize, list tools, call read and bash,
// list and read a session resource, and cancel a long bash — which is
// killed, its outcome journaled, while the server goes on serving.
func TestConformanceTypeScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed; run scripts/deps.sh (it installs nodejs and the MCP TypeScript SDK)")
	}
	if _, err := os.Stat(filepath.Join(mcpclientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("the MCP TypeScript SDK is not installed in %s (%v); run scripts/deps.sh", mcpclientDir, err)
	}
	w := newWorld(t)
	script, err := filepath.Abs(filepath.Join(mcpclientDir, "conformance.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(bounded(t), node, script, smithBin, w.project, "conformance")
	cmd.Env = w.env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var got struct {
		Tools        []string `json:"tools"`
		BashProgress []string `json:"bashProgress"`
		CancelError  string   `json:"cancelError"`
		CancelMs     int      `json:"cancelMs"`
		Stderr       string   `json:"stderr"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("the script's summary %q: %v", stdout.String(), err)
	}
	t.Logf("tools %v; progress %q; the cancelled call returned after %d ms (%s)", got.Tools, got.BashProgress, got.CancelMs, got.CancelError)
	if !strings.Contains(got.Stderr, "tools/call bash (mcp:5): cancelled, unknown") {
		t.Errorf("stderr does not report the cancelled call:\n%s", got.Stderr)
	}

	// The cancelled command was stopped, not left to run: its completion
	// is in the journal, cancelled, without the output after the sleep.
	dump := exec.Command(smithBin, "session", "dump", "conformance")
	dump.Env = w.env()
	out, err := dump.Output()
	if err != nil {
		t.Fatal(err)
	}
	type frame struct {
		Kind    string `json:"kind"`
		Pair    string `json:"pair"`
		Content struct {
			Parent   string `json:"parent"`
			Mutation string `json:"mutation"`
			Output   string `json:"output"`
		} `json:"content"`
	}
	parents := map[string]string{}
	found := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var f frame
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		switch f.Kind {
		case "effect_intent":
			parents[f.Pair] = f.Content.Parent
		case "effect_completion":
			if parents[f.Pair] != "mcp:5" {
				continue
			}
			found = true
			b, _ := base64.StdEncoding.DecodeString(f.Content.Output)
			if f.Content.Mutation != "unknown" || !strings.Contains(string(b), `"cancelled":true`) || strings.Contains(string(b), "woke") {
				t.Errorf("the cancelled bash completed %s with %s", f.Content.Mutation, b)
			}
		}
	}
	if !found {
		t.Errorf("no completion of the cancelled bash (mcp:5) in the journal:\n%s", out)
	}
}
