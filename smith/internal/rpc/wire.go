package rpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smith-agent/smith/core/protocol"
)

// nullID is the id of a response to a line whose id could not be read.
var nullID = json.RawMessage("null")

// request is one parsed request line.
type request struct {
	line   int
	id     json.RawMessage // nil for a notification
	method string
	params json.RawMessage // nil when absent or null
	// fail, when set, is the error the line is answered with, under the id
	// answer (the line is not a request that can be served).
	fail   *wireError
	answer json.RawMessage
}

// wireError is an error answered with its own JSON-RPC code.
type wireError struct {
	code int
	msg  string
}

func (e *wireError) Error() string { return e.msg }

func errorf(code int, format string, args ...any) *wireError {
	return &wireError{code: code, msg: fmt.Sprintf(format, args...)}
}

// parse reads one line as a JSON-RPC 2.0 request. A line that cannot be
// a request is an error with the id to answer it with (null when no id
// could be read).
func parse(n int, line []byte) (*request, json.RawMessage, *wireError) {
	if !json.Valid(line) {
		var se *json.SyntaxError
		err := json.Unmarshal(line, new(any))
		why := "it is not valid JSON"
		if errors.As(err, &se) {
			why = fmt.Sprintf("it is not valid JSON (%s at byte %d)", strings.TrimPrefix(se.Error(), "json: "), se.Offset)
		}
		return nil, nullID, errorf(protocol.CodeParseError, "line %d: %s; send one JSON-RPC 2.0 request object per line, such as {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"state\"}", n, why)
	}
	trimmed := bytes.TrimLeft(line, " \t\r\n")
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		return nil, nullID, errorf(protocol.CodeInvalidRequest, "line %d is a batch (a JSON array); smith rpc takes one request object per line, so send its requests on lines of their own", n)
	case len(trimmed) == 0 || trimmed[0] != '{':
		return nil, nullID, errorf(protocol.CodeInvalidRequest, "line %d is not a JSON object; a request is an object with \"jsonrpc\":\"2.0\", \"method\" and, for a response, \"id\"", n)
	}
	var raw struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(line, &raw); err != nil {
		return nil, nullID, errorf(protocol.CodeInvalidRequest, "line %d: %v", n, err)
	}
	id := raw.ID
	if id != nil {
		var buf bytes.Buffer
		if err := json.Compact(&buf, id); err != nil {
			return nil, nullID, errorf(protocol.CodeInvalidRequest, "line %d: the id cannot be read: %v", n, err)
		}
		id = buf.Bytes()
		if c := id[0]; c == '{' || c == '[' || c == 't' || c == 'f' {
			return nil, nullID, errorf(protocol.CodeInvalidRequest, "line %d: the id %s is not a number, a string or null; use a number or a string", n, clip(id))
		}
	}
	answer := id
	if answer == nil {
		answer = nullID
	}
	var version string
	if raw.JSONRPC == nil || json.Unmarshal(raw.JSONRPC, &version) != nil || version != protocol.RPCVersion {
		got := "no \"jsonrpc\" member"
		if raw.JSONRPC != nil {
			got = "\"jsonrpc\":" + clip(raw.JSONRPC)
		}
		return nil, answer, errorf(protocol.CodeInvalidRequest, "line %d has %s; every request carries \"jsonrpc\":\"2.0\"", n, got)
	}
	var method string
	if raw.Method == nil || json.Unmarshal(raw.Method, &method) != nil {
		got := "no \"method\" member"
		if raw.Method != nil {
			got = "the method " + clip(raw.Method) + ", which is not a string"
		}
		return nil, answer, errorf(protocol.CodeInvalidRequest, "line %d has %s; name the method as a string, such as \"method\":\"state\"", n, got)
	}
	params := raw.Params
	if string(params) == "null" {
		params = nil
	}
	if params != nil {
		switch params[0] {
		case '{':
		case '[':
			return nil, answer, errorf(protocol.CodeInvalidParams, "line %d: %s: params are an array; smith rpc takes params by name, as an object", n, method)
		default:
			return nil, answer, errorf(protocol.CodeInvalidRequest, "line %d: params %s are neither an object nor an array; pass an object, or leave params out", n, clip(params))
		}
	}
	return &request{line: n, id: id, method: method, params: params}, answer, nil
}

// clip shortens b for an error message.
func clip(b []byte) string {
	const max = 60
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max]) + "…"
}

// decodeParams decodes p into v, refusing members v does not have.
func decodeParams(method string, p json.RawMessage, v any) *wireError {
	if p == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(p))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		msg := strings.TrimPrefix(err.Error(), "json: ")
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			msg = fmt.Sprintf("member %q is a JSON %s, not the %s it must be", te.Field, te.Value, jsonKind(te.Type.Kind().String()))
		} else if strings.HasPrefix(msg, "unknown field ") {
			msg = "unknown member " + strings.TrimPrefix(msg, "unknown field ")
		}
		return errorf(protocol.CodeInvalidParams, "%s: params: %s; see docs/rpc.md for its params", method, msg)
	}
	return nil
}

// jsonKind names a Go kind as a JSON type.
func jsonKind(k string) string {
	switch k {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "slice", "array":
		return "array"
	case "struct", "map", "ptr":
		return "object"
	}
	return "number"
}

// marshal encodes v as compact JSON without HTML escaping.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// lineWriter is the server's one writer of stdout: each message is one
// line, written whole under its lock and flushed. After a write fails
// (the client went away) every later write is dropped and broken is
// closed.
type lineWriter struct {
	mu     sync.Mutex
	w      *bufio.Writer
	err    error
	closed atomic.Bool
	broken chan struct{}
}

func newLineWriter(w io.Writer) *lineWriter {
	return &lineWriter{w: bufio.NewWriterSize(w, 64<<10), broken: make(chan struct{})}
}

// line writes parts and a newline as one line.
func (lw *lineWriter) line(parts ...[]byte) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.err != nil || lw.closed.Load() {
		return
	}
	for _, p := range parts {
		if _, err := lw.w.Write(p); err != nil {
			lw.fail(err)
			return
		}
	}
	if err := lw.w.WriteByte('\n'); err != nil {
		lw.fail(err)
		return
	}
	if err := lw.w.Flush(); err != nil {
		lw.fail(err)
	}
}

func (lw *lineWriter) fail(err error) {
	lw.err = err
	close(lw.broken)
}

// close drops every later write and returns the first write error. A
// write blocked on a client that stopped reading is waited for one second
// at most; it is then left behind and reported.
func (lw *lineWriter) close() error {
	lw.closed.Store(true)
	for deadline := time.Now().Add(time.Second); ; {
		if lw.mu.TryLock() {
			defer lw.mu.Unlock()
			return lw.err
		}
		if time.Now().After(deadline) {
			return errors.New("the client stopped reading the output")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var (
	respHead   = []byte(`{"jsonrpc":"2.0","id":`)
	resultHead = []byte(`,"result":`)
	errorHead  = []byte(`,"error":`)
	tail       = []byte(`}`)
	eventHead  = []byte(`{"jsonrpc":"2.0","method":"` + protocol.RPCEventMethod + `","params":`)
)

// result writes the response carrying result b.
func (lw *lineWriter) result(id json.RawMessage, b []byte) {
	lw.line(respHead, id, resultHead, b, tail)
}

// error writes the error response e.
func (lw *lineWriter) error(id json.RawMessage, code int, msg string) {
	b, err := marshal(protocol.RPCError{Code: code, Message: msg})
	if err != nil {
		b = []byte(`{"code":-32603,"message":"the error could not be encoded"}`)
	}
	lw.line(respHead, id, errorHead, b, tail)
}

// event writes the notification of one event, already encoded.
func (lw *lineWriter) event(ev []byte) {
	lw.line(eventHead, ev, tail)
}
