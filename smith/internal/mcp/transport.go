package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/smith-agent/smith/smith/internal/lines"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine bounds one inbound frame: 16 MiB. A longer line is answered with
// an invalid-request error and skipped.
const MaxLine = 16 << 20

// Serve serves one client speaking newline-delimited JSON-RPC on r and w
// (stdin and stdout) until r ends or ctx does; see [Server.Run]. Unlike
// the SDK's stdio transport, a line that is not a JSON-RPC message does
// not end the connection: it is answered with a parse error (invalid JSON)
// or an invalid-request error (JSON that is not a message, such as a
// batch, which MCP does not have), with id null, and the server goes on
// reading. w receives only MCP frames.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	return s.Run(ctx, &lineTransport{r: r, w: w, logf: s.logf})
}

// lineTransport is the connection [Server.Serve] reads and writes.
type lineTransport struct {
	r    io.Reader
	w    io.Writer
	logf func(string, ...any)

	wmu    sync.Mutex // one frame per write, whole
	lines  chan []byte
	rerr   error // the reader's error, set before lines is closed
	done   chan struct{}
	closed sync.Once
}

func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	t.lines = make(chan []byte)
	t.done = make(chan struct{})
	go t.read()
	return t, nil
}

// read splits the input into lines, bounded by MaxLine, until it ends.
func (t *lineTransport) read() {
	defer close(t.lines)
	lr := lines.NewReader(t.r, MaxLine)
	for {
		line, long, err := lr.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.rerr = err
			}
			return
		}
		if long {
			t.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("smith: a line of more than %d bytes was skipped; send one JSON-RPC message per line, smaller", MaxLine))
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		select {
		case t.lines <- bytes.Clone(line):
		case <-t.done:
			return
		}
	}
}

func (t *lineTransport) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		select {
		case line, ok := <-t.lines:
			if !ok {
				if t.rerr != nil {
					return nil, t.rerr
				}
				return nil, io.EOF
			}
			msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(line))
			if err == nil {
				return msg, nil
			}
			trimmed := bytes.TrimSpace(line)
			switch {
			case !json.Valid(trimmed):
				t.reject(trimmed, jsonrpc.CodeParseError, "smith: the line is not JSON; send one JSON-RPC message per line")
			case trimmed[0] == '[':
				t.reject(trimmed, jsonrpc.CodeInvalidRequest, "smith: the line is a batch (a JSON array); MCP has no batches: send each message on its own line")
			default:
				t.rejectID(trimmed, jsonrpc.CodeInvalidRequest, `smith: the line is not a JSON-RPC 2.0 message: a request needs "jsonrpc":"2.0", an "id" and a "method"; a notification omits the id; a response has "id" and "result" or "error"`)
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.done:
			return nil, io.EOF
		}
	}
}

// rejectID answers a JSON object that is no message with an error
// correlated to its "id" when it has a usable one (a string or a
// number), else of id null.
func (t *lineTransport) rejectID(line []byte, code int64, msg string) {
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	var id any
	if json.Unmarshal(line, &head) == nil && len(head.ID) > 0 {
		var v any
		if json.Unmarshal(head.ID, &v) == nil {
			switch v.(type) {
			case string, float64:
				id = head.ID
			}
		}
	}
	t.rejectAs(id, line, code, msg)
}

// reject answers a line that is no message with an error of id null.
func (t *lineTransport) reject(line []byte, code int64, msg string) {
	t.rejectAs(nil, line, code, msg)
}

func (t *lineTransport) rejectAs(id any, line []byte, code int64, msg string) {
	text := strings.TrimPrefix(msg, "smith: ")
	if len(line) > 0 {
		t.logf("smith mcp: %s; the line was %.80q", text, line)
	} else {
		t.logf("smith mcp: %s", text)
	}
	b, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		return
	}
	_ = t.writeLine(b)
}

func (t *lineTransport) Write(_ context.Context, msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return t.writeLine(b)
}

func (t *lineTransport) writeLine(b []byte) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	select {
	case <-t.done:
		return errors.New("mcp: the connection is closed")
	default:
	}
	_, err := t.w.Write(append(b, '\n'))
	return err
}

func (t *lineTransport) Close() error {
	t.closed.Do(func() {
		close(t.done)
		if c, ok := t.r.(io.Closer); ok {
			_ = c.Close()
		}
	})
	return nil
}

func (t *lineTransport) SessionID() string { return "" }
