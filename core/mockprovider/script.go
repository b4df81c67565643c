package mockprovider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/smith-agent/smith/core/model"
)

// MaxScriptBytes bounds a script file.
const MaxScriptBytes = 4 << 20

// Script is a parsed mock script: the expanded stream of every response.
type Script struct {
	Model     string
	Responses []Response
}

// Response is one scripted provider response.
type Response struct {
	// Events is the stream, already expanded.
	Events []model.StreamEvent
	// HangAfter, when >= 0, blocks the stream after that many events until
	// the request is cancelled.
	HangAfter int
}

type rawScript struct {
	Version   *int              `json:"mock_script"`
	Model     string            `json:"model"`
	Responses []json.RawMessage `json:"responses"`
}

type rawCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type rawResponse struct {
	Text      string            `json:"text"`
	Thinking  string            `json:"thinking"`
	ToolCalls []rawCall         `json:"tool_calls"`
	Stop      model.StopReason  `json:"stop"`
	Usage     *model.Usage      `json:"usage"`
	Error     *model.Error      `json:"error"`
	Events    []json.RawMessage `json:"events"`
	HangAfter *int              `json:"hang_after"`
}

// Parse reads a script. Errors name the response index and field and the
// file is bounded by [MaxScriptBytes].
func Parse(b []byte) (*Script, error) {
	if len(b) > MaxScriptBytes {
		return nil, fmt.Errorf("mockprovider: script is %d bytes, over the %d-byte bound", len(b), MaxScriptBytes)
	}
	var raw rawScript
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&raw); err != nil {
		return nil, fmt.Errorf("mockprovider: script is not a valid mock script object: %w", err)
	}
	if raw.Version == nil || *raw.Version != 1 {
		return nil, fmt.Errorf("mockprovider: script lacks \"mock_script\": 1 (the format version); add it as the first field")
	}
	s := &Script{Model: raw.Model}
	if s.Model == "" {
		s.Model = "mock-model"
	}
	for i, rr := range raw.Responses {
		resp, err := parseResponse(rr, s.Model, i)
		if err != nil {
			return nil, fmt.Errorf("mockprovider: responses[%d]: %w", i, err)
		}
		s.Responses = append(s.Responses, resp)
	}
	return s, nil
}

func parseResponse(b []byte, modelID string, i int) (Response, error) {
	var r rawResponse
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&r); err != nil {
		return Response{}, fmt.Errorf("not a response object: %w", err)
	}
	resp := Response{HangAfter: -1}
	if r.HangAfter != nil {
		if *r.HangAfter < 0 {
			return Response{}, fmt.Errorf("hang_after is %d, want >= 0", *r.HangAfter)
		}
		resp.HangAfter = *r.HangAfter
	}
	if r.Events != nil {
		if r.Text != "" || r.Thinking != "" || r.ToolCalls != nil || r.Error != nil || r.Stop != "" || r.Usage != nil {
			return Response{}, fmt.Errorf("\"events\" cannot be combined with text, thinking, tool_calls, stop, usage or error")
		}
		for j, e := range r.Events {
			ev, err := model.UnmarshalStreamEvent(e)
			if err != nil {
				return Response{}, fmt.Errorf("events[%d]: %w", j, err)
			}
			resp.Events = append(resp.Events, ev)
		}
		return resp, nil
	}
	start := model.Start{Provider: "mock", Model: modelID, ResponseID: fmt.Sprintf("mock-resp-%d", i+1)}
	if r.Error != nil {
		if !r.Error.Kind.Valid() {
			return Response{}, fmt.Errorf("error.kind %q is not an error kind", r.Error.Kind)
		}
		e := *r.Error
		resp.Events = []model.StreamEvent{start, model.StreamError{Err: &e}}
		return resp, nil
	}
	evs := []model.StreamEvent{start}
	idx := 0
	if r.Thinking != "" {
		for _, p := range words(r.Thinking) {
			evs = append(evs, model.ThinkingDelta{Index: idx, Text: p})
		}
		idx++
	}
	if r.Text != "" {
		for _, p := range words(r.Text) {
			evs = append(evs, model.TextDelta{Index: idx, Text: p})
		}
		idx++
	}
	for j, c := range r.ToolCalls {
		if c.ID == "" || c.Name == "" {
			return Response{}, fmt.Errorf("tool_calls[%d] needs an id and a name", j)
		}
		args := string(c.Arguments)
		if args == "" {
			args = "{}"
		}
		evs = append(evs, model.ToolCallStart{Index: idx, ID: c.ID, Name: c.Name})
		for _, p := range chunks(args, 16) {
			evs = append(evs, model.ToolCallDelta{Index: idx, Arguments: p})
		}
		evs = append(evs, model.ToolCallEnd{Index: idx})
		idx++
	}
	stop := r.Stop
	if stop == "" {
		stop = model.StopEnd
		if len(r.ToolCalls) > 0 {
			stop = model.StopToolUse
		}
	}
	if !stop.Valid() {
		return Response{}, fmt.Errorf("stop %q is not a stop reason; want end, tool_use, length or refusal", stop)
	}
	usage := model.Usage{}
	if r.Usage != nil {
		usage = *r.Usage
	}
	resp.Events = append(evs, model.Done{Reason: stop, Usage: usage})
	return resp, nil
}

// words splits s after each space, keeping the spaces.
func words(s string) []string {
	var out []string
	for len(s) > 0 {
		i := bytes.IndexByte([]byte(s), ' ')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// chunks splits s into pieces of at most n bytes on rune boundaries.
func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if cut == 0 {
			cut = n
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}
