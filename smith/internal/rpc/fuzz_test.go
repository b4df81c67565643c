package rpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/protocol"
)

// FuzzServe feeds arbitrary lines to a server: it must not panic, every
// output line must be a well-formed response or event notification, each
// input line gets at most one response (with its id when it has one), and
// the session files stay intact.
func FuzzServe(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"prompt","params":{"text":"fix the bug"}}`,
		`{"jsonrpc":"2.0","id":"a","method":"wait","params":{"timeout_ms":1000}}`,
		`{"jsonrpc":"2.0","id":2,"method":"state"}`,
		`{"jsonrpc":"2.0","method":"abort"}`,
		`{"jsonrpc":"2.0","id":3,"method":"queue.set","params":{"steer":[{"role":"user","content":[{"type":"text","text":"x"}]}]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"session.new","params":{"name":"../../etc"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"session.fork","params":{"at":"zz"}}`,
		`{"jsonrpc":"2.0","id":null,"method":"steer","params":{"text":"hi","images":[{"media_type":"image/png","data":"AAAA"}]}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"state"}]`,
		`{"jsonrpc":"2.0","id":1.5e300,"method":"stats","params":{}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"abort\"}",
		`{"jsonrpc":"2.0","id":6,"method":"model.set","params":{"thinking":"extreme"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"session.label","params":{"ref":"0","label":"x"}}`,
		"garbage\n\n{}",
		`{"jsonrpc":"2.0","id":8,"method":"shutdown"}`,
	} {
		f.Add(seed)
	}
	w := newWorld(f)
	rt := w.Open("mock", false)
	f.Fuzz(func(t *testing.T, input string) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		srv, err := New(Options{Runtime: rt})
		if err != nil {
			t.Fatal(err)
		}
		served := make(chan error, 1)
		go func() { served <- srv.Serve(context.Background(), inR, outW); _ = outW.Close() }()
		out := make(chan message, 16)
		bad := make(chan string, 1)
		go func() {
			defer close(out)
			sc := bufio.NewScanner(outR)
			sc.Buffer(make([]byte, 1<<20), 64<<20)
			for sc.Scan() {
				var m message
				if err := wellFormed(sc.Bytes(), &m); err != nil {
					bad <- fmt.Sprintf("output line %q: %v", sc.Text(), err)
					return
				}
				out <- m
			}
		}()
		timeout := time.After(2 * time.Minute)
		for i, line := range strings.Split(input, "\n") {
			sentinel := fmt.Sprintf(`"sentinel-%d"`, i)
			msg := line + "\n" + `{"jsonrpc":"2.0","id":` + sentinel + `,"method":"stats"}` + "\n"
			go func() { _, _ = io.WriteString(inW, msg) }()
			var got []message
		collect:
			for {
				select {
				case m, ok := <-out:
					if !ok {
						break collect // the line shut the server down
					}
					if m.Method != "" {
						continue // an event
					}
					if string(m.ID) == sentinel {
						break collect
					}
					got = append(got, m)
				case s := <-bad:
					t.Fatal(s)
				case <-timeout:
					t.Fatalf("line %q: no answer within two minutes", line)
				}
			}
			if len(got) > 1 {
				t.Fatalf("line %q got %d responses", line, len(got))
			}
			if len(got) == 1 {
				var head struct {
					ID json.RawMessage `json:"id"`
				}
				if json.Unmarshal([]byte(line), &head) == nil && head.ID != nil && got[0].Error == nil {
					var a, b any
					_ = json.Unmarshal(head.ID, &a)
					_ = json.Unmarshal(got[0].ID, &b)
					if fmt.Sprint(a) != fmt.Sprint(b) {
						t.Fatalf("line %q answered with id %s", line, got[0].ID)
					}
				}
			}
		}
		_ = inW.Close()
		for range out {
		}
		if err := <-served; err != nil {
			t.Fatal(err)
		}
		infos, err := rt.Sessions(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range infos {
			if in.Damaged != "" {
				t.Fatalf("session %s is damaged after the input: %s", in.ID, in.Damaged)
			}
		}
	})
}

// wellFormed decodes one output line and checks it is a JSON-RPC 2.0
// response (an id, exactly one of result and error) or an event
// notification.
func wellFormed(line []byte, m *message) error {
	if bytes.ContainsAny(line, "\r") {
		return fmt.Errorf("a raw carriage return inside a line")
	}
	var head struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return err
	}
	if err := json.Unmarshal(line, m); err != nil {
		return err
	}
	switch {
	case head.JSONRPC != protocol.RPCVersion:
		return fmt.Errorf("jsonrpc is %q", head.JSONRPC)
	case m.Method != "":
		if m.Method != protocol.RPCEventMethod || head.ID != nil {
			return fmt.Errorf("a notification of method %q with id %s", m.Method, head.ID)
		}
		_, err := protocol.UnmarshalEvent(m.Params)
		return err
	case head.ID == nil:
		return fmt.Errorf("a response without an id")
	case (m.Result == nil) == (m.Error == nil):
		return fmt.Errorf("not exactly one of result and error")
	case m.Error != nil && m.Error.Message == "":
		return fmt.Errorf("an error without a message")
	}
	return nil
}
