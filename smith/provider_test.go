package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// sseEvent frames one Messages API server-sent event.
func sseEvent(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }

// messagesStream composes a Messages API stream (from the documented
// format): optional text, optional tool call, then the stop reason.
func messagesStream(text, toolID, toolName, toolInput string) string {
	var b strings.Builder
	b.WriteString(sseEvent("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":100,"output_tokens":1}}}`))
	i := 0
	if text != "" {
		b.WriteString(sseEvent("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i)))
		b.WriteString(sseEvent("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%q}}`, i, text)))
		b.WriteString(sseEvent("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i)))
		i++
	}
	stop := "end_turn"
	if toolName != "" {
		stop = "tool_use"
		b.WriteString(sseEvent("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, i, toolID, toolName)))
		b.WriteString(sseEvent("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%q}}`, i, toolInput)))
		b.WriteString(sseEvent("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i)))
	}
	b.WriteString(sseEvent("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q},"usage":{"output_tokens":7}}`, stop)))
	b.WriteString(sseEvent("message_stop", `{"type":"message_stop"}`))
	return b.String()
}

// TestEvalRealProvider: eval --model PROVIDER/MODEL runs a tool-using turn
// against a loopback server through the embedded provider codec plugin:
// the credential comes from the environment and is sent, the model's tool
// call runs through the tools plugin and is recorded with its effect, and
// the key appears in no output and no session record.
func TestEvalRealProvider(t *testing.T) {
	const key = "sk-loopback-key-4f1c"
	var mu sync.Mutex
	var keys []string
	replies := []string{
		messagesStream("Reading it.", "toolu_1", "read", `{"path":"greet.sh"}`),
		messagesStream("greet.sh misspells Hello.", "", "", ""),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		n := len(keys)
		keys = append(keys, r.Header.Get("x-api-key"))
		mu.Unlock()
		if n >= len(replies) {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no more replies"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, replies[n])
	}))
	defer srv.Close()

	e := newEnv(t)
	e.demo()
	cmd := e.command("", "eval", "--model", "anthropic/claude-loopback", "--session", "real", "what is wrong with greet.sh?")
	cmd.Env = append(cmd.Env, "ANTHROPIC_API_KEY="+key, "ANTHROPIC_BASE_URL="+srv.URL)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("eval: %v (requests: %d)\nstdout: %s\nstderr: %s", err, len(keys), out.String(), errb.String())
	}
	for _, w := range []string{"Reading it.", "→ read", "Helo", "greet.sh misspells Hello."} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("stdout lacks %q:\n%s", w, out.String())
		}
	}
	mu.Lock()
	if len(keys) != 2 || keys[0] != key || keys[1] != key {
		t.Errorf("the server saw keys %q", keys)
	}
	mu.Unlock()

	path := e.sessionInfo("real").Path
	kinds, msgs := load(t, path)
	checkPaired(t, msgs)
	if len(msgs) != 4 {
		t.Fatalf("%d messages, want user, assistant, tool_result, assistant", len(msgs))
	}
	// The read, and the two provider exchanges.
	if i, c := count(kinds, "effect_intent"), count(kinds, "effect_completion"); i != 8 || c != 8 {
		t.Fatalf("effects: %d intents, %d completions; want 8 and 8 (the read, two exchanges, three reads of instruction files, two file snapshots)", i, c)
	}
	dump := e.mustRun("", "session", "dump", "real").stdout
	if n := strings.Count(dump, "provider.exchange"); n != 2 {
		t.Errorf("the dump shows %d provider.exchange intents, want 2:\n%s", n, dump)
	}
	for _, w := range []string{"${ANTHROPIC_API_KEY}", "greet.sh misspells Hello."} {
		if !strings.Contains(dump, w) {
			t.Errorf("the dump lacks %q (the redacted request, the recorded response)", w)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"stdout": out.String(), "stderr": errb.String(), "dump": dump, "session file": string(raw)} {
		if strings.Contains(s, key) {
			t.Errorf("the API key leaked into the %s", name)
		}
	}
	if ms, _ := filepath.Glob(filepath.Join(e.home, "sessions", "*.session")); len(ms) != 1 {
		t.Fatalf("sessions: %v", ms)
	}
}
