package rpc

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
)

// TestBadLines: every line that is not a valid request gets a correlated
// error (id null where none could be read) and the server goes on serving:
// the request after each bad line is answered.
func TestBadLines(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		id     string // the response's id, as raw JSON
		code   int
		phrase string // part of the message
	}{
		{name: "not JSON", line: `garbage`, id: "null", code: protocol.CodeParseError, phrase: "not valid JSON"},
		{name: "cut off", line: `{"jsonrpc":"2.0","id":7,"method":"state"`, id: "null", code: protocol.CodeParseError, phrase: "not valid JSON"},
		{name: "batch", line: `[{"jsonrpc":"2.0","id":1,"method":"state"}]`, id: "null", code: protocol.CodeInvalidRequest, phrase: "batch"},
		{name: "not an object", line: `42`, id: "null", code: protocol.CodeInvalidRequest, phrase: "not a JSON object"},
		{name: "object id", line: `{"jsonrpc":"2.0","id":{"a":1},"method":"state"}`, id: "null", code: protocol.CodeInvalidRequest, phrase: "not a number, a string or null"},
		{name: "no version", line: `{"id":3,"method":"state"}`, id: "3", code: protocol.CodeInvalidRequest, phrase: `"jsonrpc":"2.0"`},
		{name: "wrong version", line: `{"jsonrpc":"1.0","id":"v","method":"state"}`, id: `"v"`, code: protocol.CodeInvalidRequest, phrase: `"jsonrpc":"1.0"`},
		{name: "no method", line: `{"jsonrpc":"2.0","id":4}`, id: "4", code: protocol.CodeInvalidRequest, phrase: `no "method"`},
		{name: "method not a string", line: `{"jsonrpc":"2.0","id":5,"method":5}`, id: "5", code: protocol.CodeInvalidRequest, phrase: "not a string"},
		{name: "unknown method", line: `{"jsonrpc":"2.0","id":6,"method":"nope"}`, id: "6", code: protocol.CodeMethodNotFound, phrase: `"nope" is not a method`},
		{name: "params array", line: `{"jsonrpc":"2.0","id":8,"method":"state","params":[1]}`, id: "8", code: protocol.CodeInvalidParams, phrase: "by name"},
		{name: "params scalar", line: `{"jsonrpc":"2.0","id":9,"method":"state","params":1}`, id: "9", code: protocol.CodeInvalidRequest, phrase: "neither an object"},
		{name: "unknown member", line: `{"jsonrpc":"2.0","id":10,"method":"prompt","params":{"txt":"x"}}`, id: "10", code: protocol.CodeInvalidParams, phrase: `unknown member "txt"`},
		{name: "wrong type", line: `{"jsonrpc":"2.0","id":11,"method":"wait","params":{"timeout_ms":"soon"}}`, id: "11", code: protocol.CodeInvalidParams, phrase: `"timeout_ms" is a JSON string`},
		{name: "empty prompt", line: `{"jsonrpc":"2.0","id":12,"method":"prompt","params":{"text":" "}}`, id: "12", code: protocol.CodeInvalidParams, phrase: `"text" is missing or empty`},
		{name: "bad delivery", line: `{"jsonrpc":"2.0","id":13,"method":"prompt","params":{"text":"x","delivery":"later"}}`, id: "13", code: protocol.CodeInvalidParams, phrase: "not one of prompt, steer, follow_up"},
		{name: "wait too long", line: `{"jsonrpc":"2.0","id":14,"method":"wait","params":{"timeout_ms":4000000}}`, id: "14", code: protocol.CodeInvalidParams, phrase: "one hour"},
		{name: "no session", line: `{"jsonrpc":"2.0","id":"s","method":"state"}`, id: `"s"`, code: protocol.CodeNoSession, phrase: "no session is open yet"},
		{name: "no session to open", line: `{"jsonrpc":"2.0","id":15,"method":"session.open","params":{"ref":"zzzz"}}`, id: "15", code: protocol.CodeUsage, phrase: `"zzzz"`},
		{name: "missing ref", line: `{"jsonrpc":"2.0","id":16,"method":"session.open"}`, id: "16", code: protocol.CodeInvalidParams, phrase: `"ref" is missing`},
	}
	w := newWorld(t)
	p := servePipes(t, w.Open("mock", false), nil)
	l := newLines(t, p)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p.send(t, tc.line)
			m := l.response(nil)
			if string(m.ID) != tc.id || m.Error == nil || m.Error.Code != tc.code || !strings.Contains(m.Error.Message, tc.phrase) {
				t.Fatalf("response %s\nwant id %s, code %d, a message containing %q", m.raw, tc.id, tc.code, tc.phrase)
			}
			if m.Result != nil {
				t.Fatalf("response %s has both a result and an error", m.raw)
			}
			// Still serving.
			p.send(t, `{"jsonrpc":"2.0","id":"after","method":"abort"}`)
			if m := l.response(nil); string(m.ID) != `"after"` || m.Error != nil {
				t.Fatalf("the request after the bad line got %s", m.raw)
			}
		})
	}
}

// TestIDsEchoed: a response carries its request's id exactly as sent.
func TestIDsEchoed(t *testing.T) {
	tests := []struct {
		name string
		id   string
	}{
		{name: "small number", id: `1`},
		{name: "zero", id: `0`},
		{name: "negative", id: `-17`},
		{name: "large number", id: `123456789012345678901234567890`},
		{name: "exponent", id: `1.5e3`},
		{name: "string", id: `"abc"`},
		{name: "empty string", id: `""`},
		{name: "escapes", id: `"a<b>&\u00e9\n\"q\""`},
		{name: "unicode", id: `"héllo ✓"`},
		{name: "null", id: `null`},
	}
	w := newWorld(t)
	p := servePipes(t, w.Open("mock", false), nil)
	l := newLines(t, p)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p.send(t, `{"jsonrpc":"2.0","id":`+tc.id+`,"method":"abort"}`)
			m := l.response(nil)
			if string(m.ID) != tc.id {
				t.Fatalf("id %s came back as %s (%s)", tc.id, m.ID, m.raw)
			}
			if !strings.HasPrefix(m.raw, `{"jsonrpc":"2.0","id":`+tc.id+`,`) {
				t.Fatalf("response %s does not echo the id bytes %s", m.raw, tc.id)
			}
		})
	}
}

// TestNotificationsGetNoResponse: a request without an id is served but
// not answered; a failed one is logged, not written to the output.
func TestNotificationsGetNoResponse(t *testing.T) {
	w := newWorld(t)
	p := servePipes(t, w.Open("mock", false), nil)
	l := newLines(t, p)
	p.send(t, `{"jsonrpc":"2.0","method":"abort"}`)
	p.send(t, `{"jsonrpc":"2.0","method":"nope"}`)
	p.send(t, ``)
	p.send(t, `   `)
	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"abort"}`)
	if m := l.response(nil); string(m.ID) != "1" {
		t.Fatalf("first line after the notifications: %s; want the response to id 1", m.raw)
	}
	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	if m := l.response(nil); string(m.ID) != "2" {
		t.Fatalf("got %s; want the shutdown response", m.raw)
	}
	if err := <-p.served; err != nil {
		t.Fatal(err)
	}
	p.served <- nil
	if !strings.Contains(p.log.String(), `notification nope failed`) {
		t.Fatalf("log = %q; want the failed notification named", p.log.String())
	}
}

// TestLongLine: a line over the bound is answered with an error and
// skipped; the next line is served (both in the ordered lane, so in line
// order).
func TestLongLine(t *testing.T) {
	w := newWorld(t)
	rt := w.Open("mock", false)
	inR, inW := newPipe(t)
	outR, outW := newPipe(t)
	srv, err := New(Options{Runtime: rt, MaxLineBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(t.Context(), inR, outW); _ = outW.Close() }()
	p := &pipes{in: inW, out: outR}
	l := newLines(t, p)
	go func() {
		p.in.WriteString(`{"jsonrpc":"2.0","id":1,"method":"prompt","params":{"text":"` + strings.Repeat("x", 5000) + `"}}` + "\n")
		p.in.WriteString(`{"jsonrpc":"2.0","id":2,"method":"stats"}` + "\n")
		p.in.Close()
	}()
	m := l.response(nil)
	if string(m.ID) != "null" || m.Error == nil || m.Error.Code != protocol.CodeInvalidRequest || !strings.Contains(m.Error.Message, "longer than 1000 bytes") {
		t.Fatalf("long line: %s", m.raw)
	}
	if m := l.response(nil); string(m.ID) != "2" {
		t.Fatalf("after the long line: %s", m.raw)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
