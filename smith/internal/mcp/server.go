package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
)

// Options configures a [Server]. Runtime and Session are required.
type Options struct {
	// Runtime serves the sessions as resources.
	Runtime *runtime.Runtime
	// Session records the tool calls; the caller opens and closes it.
	Session *runtime.Session
	// Version is Smith's version, reported to the client; "" is "dev".
	Version string
	// Log receives one line per tool call and the server's diagnostics
	// (stderr in `smith mcp`); nil discards them. It is written from
	// several goroutines, one line per Write.
	Log io.Writer
}

// Server is one MCP server over a runtime session. Build it with [New];
// it serves one connection at a time ([Server.Run]). Its methods are safe
// for concurrent use.
type Server struct {
	o     Options
	sdk   *sdk.Server
	info  protocol.SessionInfo
	names []string // the tools, in name order
	calls atomic.Uint64
	// running counts the tool calls in progress, for Run to wait on.
	running sync.WaitGroup
	logMu   sync.Mutex
}

// New lists the session's tools (waiting for the plugins to load) and
// builds the server: the tools, the session resources and the
// instructions that name the session the calls are recorded in.
func New(ctx context.Context, o Options) (*Server, error) {
	if o.Runtime == nil || o.Session == nil {
		return nil, errors.New("mcp: Options.Runtime and Options.Session are required")
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	tools, err := o.Session.Tools(ctx)
	if err != nil {
		return nil, err
	}
	s := &Server{o: o, info: o.Session.Info()}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "smith", Title: "Smith", Version: o.Version},
		&sdk.ServerOptions{Instructions: s.Instructions(), Capabilities: &sdk.ServerCapabilities{
			Tools:     &sdk.ToolCapabilities{},
			Resources: &sdk.ResourceCapabilities{},
		}})
	for _, t := range tools {
		s.names = append(s.names, t.Name)
		schema := t.Parameters
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		s.sdk.AddTool(&sdk.Tool{Name: t.Name, Description: t.Description, InputSchema: schema}, s.callTool)
	}
	s.addResources()
	s.sdk.AddReceivingMiddleware(s.unknownTool)
	return s, nil
}

// Instructions is the text the server sends the client at initialize: the
// working directory and the session the tool calls are recorded in.
func (s *Server) Instructions() string {
	return fmt.Sprintf("Smith's coding tools, acting in %s (paths outside it are refused). "+
		"Every tool call is recorded in the Smith session %s, in its effect journal; "+
		"the stored sessions are resources (smith://sessions/ID/transcript.md, and .jsonl for every frame).",
		s.o.Runtime.Cwd(), sessionName(s.info))
}

// Run serves one client over t until the client disconnects or ctx ends,
// then waits (bounded by [runtime.ToolAbortGrace] and a second) for the
// tool calls still running; they see their context cancelled.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	err := s.sdk.Run(ctx, t)
	done := make(chan struct{})
	go func() {
		s.running.Wait()
		close(done)
	}()
	wait := time.NewTimer(runtime.ToolAbortGrace + time.Second)
	defer wait.Stop()
	select {
	case <-done:
	case <-wait.C:
		s.logf("smith mcp: a tool call did not end within %s of the disconnect; its outcome is recorded as unknown when the session is next opened", runtime.ToolAbortGrace+time.Second)
	}
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) || ctx.Err() != nil) {
		return nil
	}
	return err
}

// Connect connects the server to t without waiting: for in-process
// clients (tests, benchmarks). Close the returned session to disconnect.
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	return s.sdk.Connect(ctx, t, nil)
}

// unknownTool answers a tools/call of a tool the session does not have
// with an error naming the available ones (the SDK's own says only
// "unknown tool").
func (s *Server) unknownTool(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if r, ok := req.(*sdk.CallToolRequest); ok && method == "tools/call" && r.Params != nil && !slices.Contains(s.names, r.Params.Name) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
				Message: fmt.Sprintf("smith: tool %q is not available; available tools: %s", r.Params.Name, strings.Join(s.names, ", "))}
		}
		return next(ctx, method, req)
	}
}

// callTool answers tools/call through the runtime.
func (s *Server) callTool(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	s.running.Add(1)
	defer s.running.Done()
	id := fmt.Sprintf("mcp:%d", s.calls.Add(1))
	var progress func([]model.Content)
	if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
		progress = s.progress(ctx, req.Session, tok)
	}
	res, err := s.o.Session.CallTool(ctx, protocol.CallToolParams{CallID: id, Name: req.Params.Name, Arguments: req.Params.Arguments}, progress)
	if err != nil {
		s.logf("smith mcp: tools/call %s (%s): %s", req.Params.Name, id, strings.TrimPrefix(err.Error(), "runtime: "))
		return nil, rpcError(err)
	}
	status := string(res.Mutation)
	switch {
	case ctx.Err() != nil:
		status = "cancelled, " + status
	case res.IsError:
		status = "error, " + status
	}
	s.logf("smith mcp: tools/call %s (%s): %s", res.Name, id, status)
	return toolResult(id, res), nil
}

// progress returns a progress callback sending each partial update as a
// notifications/progress for tok; updates are sent in order, one at a
// time.
func (s *Server) progress(ctx context.Context, ss *sdk.ServerSession, tok any) func([]model.Content) {
	var n float64
	return func(p []model.Content) {
		text := model.TextOf(p)
		if text == "" {
			return
		}
		n++
		if err := ss.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: n, Message: text}); err != nil && ctx.Err() == nil {
			s.logf("smith mcp: send progress: %v", err)
		}
	}
}

// rpcError maps a runtime error to the JSON-RPC error the client sees:
// input the client must change is invalid params; the rest is internal.
func rpcError(err error) error {
	code := int64(jsonrpc.CodeInternalError)
	if errors.Is(err, runtime.ErrUsage) {
		code = jsonrpc.CodeInvalidParams
	}
	return &jsonrpc.Error{Code: code, Message: "smith: " + strings.TrimPrefix(err.Error(), "runtime: ")}
}

// toolResult converts a tool result message to MCP.
func toolResult(id string, m model.ToolResultMessage) *sdk.CallToolResult {
	out := &sdk.CallToolResult{IsError: m.IsError, Content: []sdk.Content{},
		Meta: sdk.Meta{"smith/call_id": id, "smith/mutation": string(m.Mutation)}}
	for _, c := range m.Content {
		switch c := c.(type) {
		case model.Text:
			out.Content = append(out.Content, &sdk.TextContent{Text: c.Text})
		case model.Image:
			out.Content = append(out.Content, &sdk.ImageContent{Data: c.Data, MIMEType: c.MediaType})
		}
	}
	return out
}

func (s *Server) logf(format string, args ...any) {
	if s.o.Log == nil {
		return
	}
	line := fmt.Sprintf(format, args...) + "\n"
	s.logMu.Lock()
	defer s.logMu.Unlock()
	_, _ = io.WriteString(s.o.Log, line)
}

// sessionName names a session for people: its name and id.
func sessionName(si protocol.SessionInfo) string {
	if si.Name == "" {
		return si.ID
	}
	return si.Name + " (" + si.ID + ")"
}
