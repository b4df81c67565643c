package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/smith/internal/testworld"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/rpcclient"
	"github.com/smith-agent/smith/core/runtime"
)

// world is the test's project and Smith home (smith/internal/testworld).
type world = testworld.World

func newWorld(tb testing.TB) *world { return testworld.New(tb, "smith-rpc-test-cache") }

// pipes is a server serving over two os.Pipe pairs.
type pipes struct {
	srv    *Server
	in     *os.File // the server's input, written by the test
	out    *os.File // the server's output, read by the test
	served chan error
	log    *syncWriter
}

// servePipes starts a server for rt (with sess, nil for none) over real
// pipes; the test's cleanup ends its input and waits for it.
func servePipes(tb testing.TB, rt *runtime.Runtime, sess *runtime.Session) *pipes {
	tb.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	p := &pipes{in: inW, out: outR, served: make(chan error, 1), log: &syncWriter{b: &strings.Builder{}}}
	p.srv, err = New(Options{Runtime: rt, Session: sess, Log: p.log})
	if err != nil {
		tb.Fatal(err)
	}
	go func() {
		p.served <- p.srv.Serve(context.Background(), inR, outW)
		_ = outW.Close()
		_ = inR.Close()
	}()
	tb.Cleanup(func() {
		_ = inW.Close()
		select {
		case err := <-p.served:
			if err != nil {
				tb.Errorf("Serve: %v", err)
			}
		case <-time.After(30 * time.Second):
			tb.Error("the server did not end within 30s of the end of its input")
		}
		_ = outR.Close()
	})
	return p
}

// client connects a client to the pipes.
func (p *pipes) client() *rpcclient.Client { return rpcclient.New(p.out, p.in) }

// syncWriter is a strings.Builder safe for concurrent writes.
type syncWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *syncWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(b)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// outLines reads the server's output line by line.
type outLines struct {
	tb testing.TB
	sc *bufio.Scanner
}

func newLines(tb testing.TB, p *pipes) *outLines {
	sc := bufio.NewScanner(p.out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return &outLines{tb: tb, sc: sc}
}

// message is one output line, decoded.
type message struct {
	raw    string
	ID     json.RawMessage    `json:"id"`
	Method string             `json:"method"`
	Params json.RawMessage    `json:"params"`
	Result json.RawMessage    `json:"result"`
	Error  *protocol.RPCError `json:"error"`
}

// next returns the next line; the output must be one JSON object per line.
func (l *outLines) next() message {
	l.tb.Helper()
	if !l.sc.Scan() {
		l.tb.Fatalf("the output ended: %v", l.sc.Err())
	}
	var m message
	if err := json.Unmarshal(l.sc.Bytes(), &m); err != nil {
		l.tb.Fatalf("output line %q is not a JSON object: %v", l.sc.Text(), err)
	}
	m.raw = l.sc.Text()
	return m
}

// response returns the next response, collecting the events before it.
func (l *outLines) response(evs *[]protocol.Event) message {
	l.tb.Helper()
	for {
		m := l.next()
		if m.Method == protocol.RPCEventMethod && m.ID == nil {
			ev, err := protocol.UnmarshalEvent(m.Params)
			if err != nil {
				l.tb.Fatalf("event %s: %v", m.raw, err)
			}
			if evs != nil {
				*evs = append(*evs, ev)
			}
			continue
		}
		return m
	}
}

// send writes one line to the server.
func (p *pipes) send(tb testing.TB, line string) {
	tb.Helper()
	if _, err := p.in.WriteString(line + "\n"); err != nil {
		tb.Fatal(err)
	}
}

// requestLine is a request line for method with params (nil for none).
func requestLine(id any, method string, params any) string {
	r := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		r["params"] = params
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// words is a text of n words, which the mock model streams as n deltas.
func words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "w%d", i)
	}
	return b.String()
}

// textScript is a mock script of one text response per text.
func textScript(texts ...string) string {
	var rs []string
	for _, t := range texts {
		b, _ := json.Marshal(map[string]string{"text": t})
		rs = append(rs, string(b))
	}
	return `{"mock_script":1,"responses":[` + strings.Join(rs, ",") + `]}`
}

func newPipe(tb testing.TB) (*os.File, *os.File) {
	tb.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = r.Close(); _ = w.Close() })
	return r, w
}

func runtimeNewSession(name string) runtime.NewSessionOptions {
	return runtime.NewSessionOptions{Name: name}
}
