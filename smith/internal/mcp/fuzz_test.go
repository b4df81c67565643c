package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/protocol"
)

const fuzzInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// FuzzFrames feeds arbitrary lines to the server after the handshake, as
// a client on stdin would: the server must not panic, every line it
// writes must be one JSON-RPC message, and the session must keep every
// entry it had (the file loads, and no frame is lost), and it must go on
// serving: a ping after the fuzzed lines is answered. The bash tool is
// renamed away: a fuzzer must not run arbitrary commands.
func FuzzFrames(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"hello.txt"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{"path":"/etc/passwd"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read","arguments":"not an object"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"write","arguments":{"path":"f.txt","content":"x"},"_meta":{"progressToken":{"a":1}}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"nope"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"resources/list","params":{"cursor":"zzz"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"smith://sessions/fuzz/transcript.md"}}`,
		`{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"smith://sessions/../../etc/transcript.jsonl"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`,
		`{"jsonrpc":"2.0","id":9,"method":"no/such"}`,
		`[{"jsonrpc":"2.0","id":10,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"1.0","id":11}`,
		`{not json`,
		"\x00\xff",
		"",
	} {
		f.Add(seed)
	}
	w := newWorld(f)
	rt := w.open(f)
	sess, err := rt.OpenOrCreateSession(context.Background(), "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = sess.Close(context.Background()) })
	srv, err := New(context.Background(), Options{Runtime: rt, Session: sess, Version: "fuzz"})
	if err != nil {
		f.Fatal(err)
	}
	frames := func() int {
		var b bytes.Buffer
		if err := rt.Transcript(context.Background(), &b, "fuzz", protocol.TranscriptJSONL); err != nil {
			f.Fatalf("the session does not load: %v", err)
		}
		return bytes.Count(b.Bytes(), []byte("\n"))
	}
	f.Fuzz(func(t *testing.T, lines string) {
		lines = strings.NewReplacer("bash", "nope", "fuzz-end", "fuzz-xxx").Replace(lines)
		before := frames()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		in, feed := io.Pipe()
		out, sink := io.Pipe()
		served := make(chan error, 1)
		go func() {
			err := srv.Serve(ctx, in, sink)
			_ = sink.Close()
			served <- err
		}()
		go func() {
			_, _ = io.WriteString(feed, fuzzInit+lines+"\n"+`{"jsonrpc":"2.0","id":"fuzz-end","method":"ping"}`+"\n")
		}()
		// Every line out is one JSON-RPC message, and the ping after the
		// fuzzed lines is answered: the server kept serving.
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 8<<20)
		answered := false
		for !answered && sc.Scan() {
			var msg struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg.JSONRPC != "2.0" {
				t.Fatalf("the server wrote a line that is not a JSON-RPC message: %q (%v)", sc.Bytes(), err)
			}
			answered = string(msg.ID) == `"fuzz-end"`
		}
		if !answered {
			t.Fatalf("the server stopped answering after the input %q (%v)", lines, sc.Err())
		}
		_ = feed.Close()
		go func() { _, _ = io.Copy(io.Discard, out) }()
		if err := <-served; err != nil {
			t.Fatalf("the server ended with %v", err)
		}
		if after := frames(); after < before {
			t.Fatalf("the session lost frames: %d before, %d after", before, after)
		}
	})
}
