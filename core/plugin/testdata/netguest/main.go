//go:build wasip1

// Command netguest is a test tool plugin of core/plugin: its tool "fetch"
// writes the log records given in its arguments through the log
// capability, then sends the request given in them through the http
// capability and returns the outcome as JSON. The package's tests build it
// with the standard toolchain (GOOS=wasip1 GOARCH=wasm, c-shared).
package main

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/http"
	"github.com/smith-agent/smith/wit/log"
	"github.com/smith-agent/smith/wit/tool"
	"github.com/smith-agent/smith/wit/types"
)

func init() {
	contrib.Export(plugin{})
	tool.Export(plugin{})
}

func main() {}

type plugin struct{}

func (plugin) DeclareContributions(contrib.DeclareOptions) (contrib.Contributions, error) {
	return contrib.Contributions{Tools: []contrib.ToolDefinition{{
		Name: "fetch", Description: "Logs, then sends one HTTP request.", InputSchema: `{"type":"object"}`,
	}}}, nil
}

// args are the tool's arguments.
type args struct {
	Logs []struct {
		Level   string `json:"level"`
		Message string `json:"message"`
		Repeat  int    `json:"repeat"`
	} `json:"logs"`
	Method    string            `json:"method"`
	URL       string            `json:"url"`
	Headers   map[string]string `json:"headers"`
	Body      string            `json:"body"`
	TimeoutMs uint32            `json:"timeout_ms"`
	BodyLimit uint64            `json:"body_limit"`
}

// result is the tool's output.
type result struct {
	Status  uint16            `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
	Fault   string            `json:"fault,omitempty"`
	Detail  string            `json:"detail,omitempty"`
}

var levels = map[string]log.Level{"debug": log.LevelDebug, "info": log.LevelInfo, "warning": log.LevelWarning,
	"error": log.LevelError, "unknown": log.LevelUnknown}

func (plugin) InvokeTool(call tool.ToolCall, _ tool.InvokeOptions) (tool.ToolOutput, error) {
	if call.Name != "fetch" {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultUnknownTool, UnknownTool: call.Name}
	}
	var a args
	if err := json.Unmarshal([]byte(call.Arguments), &a); err != nil {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultInvalidArguments, InvalidArguments: err.Error()}
	}
	for _, l := range a.Logs {
		for range max(l.Repeat, 1) {
			log.WriteLog(l.Message, log.LogOptions{Level: levels[l.Level]})
		}
	}
	var r result
	if a.URL != "" {
		req := http.Request{Method: a.Method, URL: a.URL, Body: []byte(a.Body)}
		for k, v := range a.Headers {
			req.Headers = append(req.Headers, http.Header{Name: k, Value: v})
		}
		resp, err := http.SendRequest(req, http.SendOptions{TimeoutMs: a.TimeoutMs, BodyLimit: a.BodyLimit})
		var f http.HTTPFault
		switch {
		case errors.As(err, &f):
			r.Fault, r.Detail = f.Case.String(), f.Error()
		case err != nil:
			r.Fault = err.Error()
		default:
			r.Status, r.Body = resp.Status, string(resp.Body)
			r.Headers = map[string]string{}
			for _, h := range resp.Headers {
				r.Headers[strings.ToLower(h.Name)] = h.Value
			}
		}
	}
	b, _ := json.Marshal(r)
	return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: string(b)}}}, nil
}
