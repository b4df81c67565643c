package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

func resultText(m model.ToolResultMessage) string {
	var b strings.Builder
	for _, c := range m.Content {
		if t, ok := c.(model.Text); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func lastResults(t *testing.T, evs []protocol.Event) []model.ToolResultMessage {
	t.Helper()
	for i := len(evs) - 1; i >= 0; i-- {
		if te, ok := evs[i].(protocol.TurnEnd); ok && len(te.ToolResults) > 0 {
			return te.ToolResults
		}
	}
	t.Fatal("no turn with tool results")
	return nil
}

// TestToolCallsAreValidatedBeforeExecution: calls with schema violations,
// invalid JSON, or an unknown tool never reach Execute; the model gets a
// result saying exactly what was wrong, and the loop goes on.
func TestToolCallsAreValidatedBeforeExecution(t *testing.T) {
	tests := []struct {
		name string
		call string // tool_calls entry or raw events
		want string
	}{
		{"missing required", `{"id":"c1","name":"read","arguments":{}}`,
			`tool "read" was not run: its arguments do not match the schema: at /: missing required property "path"; fix them and call it again`},
		{"wrong type", `{"id":"c1","name":"read","arguments":{"path":3}}`,
			`at /path: must be string, got integer 3`},
		{"unknown property", `{"id":"c1","name":"read","arguments":{"path":"a","lines":5}}`,
			`at /lines: unknown property "lines"; allowed: path`},
		{"unknown tool", `{"id":"c1","name":"rm","arguments":{}}`,
			`tool "rm" is not available; available tools: read`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := script(t, `{"mock_script":1,"responses":[{"tool_calls":[`+tt.call+`]},{"text":"sorry"}]}`)
			executed := false
			tool := &funcTool{name: "read", run: func(context.Context, *Call) (Result, error) {
				executed = true
				return textResult("x"), nil
			}}
			rec := &memRecorder{}
			run, err := newAgent(t, p, rec, tool).Start(context.Background(), model.UserText("go"))
			if err != nil {
				t.Fatal(err)
			}
			evs := drain(t, run)
			if executed {
				t.Fatal("the tool ran with invalid arguments")
			}
			res := lastResults(t, evs)[0]
			if !res.IsError || res.Mutation != model.MutationNotApplied || !strings.Contains(resultText(res), tt.want) {
				t.Fatalf("result = %+v\nwant text containing %q", res, tt.want)
			}
			if end := run.Wait(); end.Reason != protocol.EndCompleted {
				t.Fatalf("end = %+v", end)
			}
			checkPairing(t, rec.messages())
		})
	}
}

func TestInvalidJSONArgumentsAreNotExecuted(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[
	  {"events":[{"type":"start"},{"type":"toolcall_start","index":0,"id":"c1","name":"read"},
	    {"type":"toolcall_delta","index":0,"arguments":"{\"path\":"},{"type":"toolcall_end","index":0},
	    {"type":"done","reason":"tool_use"}]},
	  {"text":"ok"}]}`)
	tool := &funcTool{name: "read", run: func(context.Context, *Call) (Result, error) {
		t.Error("executed")
		return Result{}, nil
	}}
	run, _ := newAgent(t, p, &memRecorder{}, tool).Start(context.Background(), model.UserText("go"))
	res := lastResults(t, drain(t, run))[0]
	if !strings.Contains(resultText(res), "the arguments are not valid JSON; call it again with the arguments as one JSON object") {
		t.Fatalf("result = %q", resultText(res))
	}
}

// TestToolFailuresAreExplicit: a tool error or panic is an error result; an
// error without a mutation state is unknown, never a silent success.
func TestToolFailuresAreExplicit(t *testing.T) {
	tests := []struct {
		name     string
		run      func(context.Context, *Call) (Result, error)
		mutation model.Mutation
		isError  bool
		text     string
	}{
		{"success defaults to applied", func(context.Context, *Call) (Result, error) { return textResult("done"), nil }, model.MutationApplied, false, "done"},
		{"error without state is unknown", func(context.Context, *Call) (Result, error) { return Result{}, errors.New("disk on fire") }, model.MutationUnknown, true, "disk on fire"},
		{"error result keeps state", func(context.Context, *Call) (Result, error) {
			return Result{IsError: true, Mutation: model.MutationNotApplied, Content: []model.Content{model.Text{Text: "nope"}}}, nil
		}, model.MutationNotApplied, true, "nope"},
		{"panic is unknown", func(context.Context, *Call) (Result, error) { panic("bug") }, model.MutationUnknown, true, "the tool panicked: bug"},
		{"invalid state is unknown", func(context.Context, *Call) (Result, error) { return Result{Mutation: "partly"}, nil }, model.MutationUnknown, false, `invalid mutation state "partly"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := script(t, `{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},{"text":"ok"}]}`)
			run, _ := newAgent(t, p, &memRecorder{}, &funcTool{name: "read", run: tt.run}).Start(context.Background(), model.UserText("go"))
			res := lastResults(t, drain(t, run))[0]
			if res.Mutation != tt.mutation || res.IsError != tt.isError || !strings.Contains(resultText(res), tt.text) {
				t.Fatalf("result = %+v", res)
			}
		})
	}
}

// TestStreamFailuresEndTheRun: provider errors, malformed and truncated
// streams end the run explicitly; tool calls of a failed response are
// answered without running; a length stop does not run a cut-off call.
func TestStreamFailuresEndTheRun(t *testing.T) {
	tests := []struct {
		name     string
		response string
		reason   protocol.EndReason
		kind     model.ErrorKind
		results  int
	}{
		{"provider error", `{"error":{"kind":"rate_limit","message":"slow down","retryable":true,"retry_after_ms":2000}}`, protocol.EndProviderError, model.ErrRateLimit, 0},
		{"truncated stream", `{"events":[{"type":"start"},{"type":"text_delta","index":0,"text":"hal"}]}`, protocol.EndProviderError, model.ErrTruncated, 0},
		{"malformed stream", `{"events":[{"type":"start"},{"type":"toolcall_delta","index":0,"arguments":"{}"}]}`, protocol.EndProviderError, model.ErrMalformed, 0},
		{"two terminals", `{"events":[{"type":"start"},{"type":"done","reason":"end"},{"type":"done","reason":"end"}]}`, protocol.EndProviderError, model.ErrMalformed, 0},
		{"error after a complete call", `{"events":[{"type":"start"},{"type":"toolcall_start","index":0,"id":"c1","name":"read"},{"type":"toolcall_end","index":0},{"type":"error","error":{"kind":"server","message":"oops"}}]}`, protocol.EndProviderError, model.ErrServer, 1},
		{"length cuts a call", `{"events":[{"type":"start"},{"type":"toolcall_start","index":0,"id":"c1","name":"read"},{"type":"toolcall_delta","index":0,"arguments":"{\"pa"},{"type":"done","reason":"length"}]}`, protocol.EndLength, "", 1},
		{"refusal", `{"text":"no","stop":"refusal"}`, protocol.EndRefusal, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := script(t, `{"mock_script":1,"responses":[`+tt.response+`]}`)
			tool := &funcTool{name: "read", run: func(context.Context, *Call) (Result, error) {
				t.Error("tool ran")
				return Result{}, nil
			}}
			rec := &memRecorder{}
			run, _ := newAgent(t, p, rec, tool).Start(context.Background(), model.UserText("go"))
			evs := drain(t, run)
			end := run.Wait()
			if end.Reason != tt.reason {
				t.Fatalf("end = %+v", end)
			}
			msgs := rec.messages()
			checkPairing(t, msgs)
			am := msgs[1].(model.AssistantMessage)
			if tt.kind != "" && (am.Error == nil || am.Error.Kind != tt.kind) {
				t.Fatalf("assistant error = %v; want %s", am.Error, tt.kind)
			}
			if got := len(msgs) - 2; got != tt.results {
				t.Fatalf("%d tool results recorded; want %d", got, tt.results)
			}
			for _, ev := range evs {
				if _, ok := ev.(protocol.ToolExecutionStart); ok {
					t.Fatal("a tool execution started")
				}
			}
		})
	}
}

func TestRecordFailureStopsBeforeTools(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]}]}`)
	tool := &funcTool{name: "read", run: func(context.Context, *Call) (Result, error) {
		t.Error("tool ran although its call was not recorded")
		return Result{}, nil
	}}
	rec := &memRecorder{failAt: 2} // the assistant message
	run, _ := newAgent(t, p, rec, tool).Start(context.Background(), model.UserText("go"))
	evs := drain(t, run)
	end := run.Wait()
	if end.Reason != protocol.EndRecordFailed || !strings.Contains(end.Error, "agent: record assistant message: disk full") {
		t.Fatalf("end = %+v", end)
	}
	wantLines(t, briefs(evs, false),
		"agent_start 1", "turn_start 1", "message_start user go", "message_end user go",
		"message_start assistant", "message_end assistant tool_use", "turn_end 1 results=0", "agent_end record_failed", "settled")
}

func TestMaxTurns(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},
	  {"tool_calls":[{"id":"c2","name":"read","arguments":{"path":"a"}}]}]}`)
	a, err := New(Config{Provider: p, Recorder: &memRecorder{}, MaxTurns: 1,
		Tools: []Tool{&funcTool{name: "read", run: func(context.Context, *Call) (Result, error) { return textResult("x"), nil }}}})
	if err != nil {
		t.Fatal(err)
	}
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	if end := run.Wait(); end.Reason != protocol.EndMaxTurns || !strings.Contains(end.Error, "limit of 1 model turns; continue the session") {
		t.Fatalf("end = %+v", end)
	}
	if n := len(p.Requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	ok := &funcTool{name: "read"}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no provider", Config{Recorder: &memRecorder{}}, "Config.Provider is nil"},
		{"no recorder", Config{Provider: script(t, `{"mock_script":1}`)}, "Config.Recorder is nil"},
		{"duplicate tool", Config{Provider: script(t, `{"mock_script":1}`), Recorder: &memRecorder{}, Tools: []Tool{ok, ok}}, `tool name "read" is used twice`},
		{"bad schema", Config{Provider: script(t, `{"mock_script":1}`), Recorder: &memRecorder{},
			Tools: []Tool{&funcTool{name: "x", schema: `{"type":"obj"}`}}}, `agent: tool "x" parameters schema: jsonschema: unknown type "obj"`},
		{"not an object schema", Config{Provider: script(t, `{"mock_script":1}`), Recorder: &memRecorder{},
			Tools: []Tool{&funcTool{name: "x", schema: `{"type":"string"}`}}}, `agent: tool "x" parameters schema must be an object schema`},
		{"relative cwd", Config{Provider: script(t, `{"mock_script":1}`), Recorder: &memRecorder{}, Cwd: "proj"}, `agent: Config.Cwd "proj" is not absolute`},
		{"empty name", Config{Provider: script(t, `{"mock_script":1}`), Recorder: &memRecorder{}, Tools: []Tool{&funcTool{}}}, "has an empty name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want %q", err, tt.want)
			}
		})
	}
}

// TestRunsAreSequentialAndSequenced: one run at a time, sequence numbers
// continue across runs, the history carries over. The first run waits in
// a tool until the second Start was refused, so the refusal does not
// depend on how fast the first run would otherwise end.
func TestRunsAreSequentialAndSequenced(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"x"}}]},{"text":"one"},{"text":"two"}]}`)
	release := make(chan struct{})
	read := &funcTool{name: "read", run: func(ctx context.Context, _ *Call) (Result, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return textResult("x"), nil
	}}
	a := newAgent(t, p, &memRecorder{}, read)
	if _, err := a.Start(context.Background()); err == nil {
		t.Fatal("started with nothing to do")
	}
	r1, _ := a.Start(context.Background(), model.UserText("a"))
	_, err := a.Start(context.Background(), model.UserText("b"))
	close(release)
	if !errors.Is(err, ErrRunActive) {
		t.Fatalf("second start = %v", err)
	}
	e1 := drain(t, r1)
	r2, err := a.Start(context.Background(), model.UserText("b"))
	if err != nil {
		t.Fatal(err)
	}
	e2 := drain(t, r2)
	if e2[0].(protocol.AgentStart).Run != 2 || e2[0].Sequence() != e1[len(e1)-1].Sequence()+1 {
		t.Fatalf("second run starts at %+v after %d", e2[0], e1[len(e1)-1].Sequence())
	}
	reqs := p.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests; want 2 in the first run, 1 in the second", len(reqs))
	}
	// The first run's last request held its prompt, the tool call and its
	// result; the second run's adds the first answer and the new prompt.
	if n, first := len(reqs[2].Messages), len(reqs[1].Messages); n != first+2 {
		t.Fatalf("second run's request has %d messages; want the first run's %d + its answer + the prompt", n, first)
	}
}

func TestInterruptedCallsArePairedOnResume(t *testing.T) {
	history := []model.Message{
		model.UserText("go"),
		model.AssistantMessage{Stop: model.StopToolUse, Content: []model.Content{
			model.ToolCall{ID: "c1", Name: "write", Arguments: json.RawMessage(`{}`)},
			model.ToolCall{ID: "c2", Name: "write", Arguments: json.RawMessage(`{}`)},
		}},
		model.ToolResultMessage{CallID: "c1", Name: "write", Mutation: model.MutationApplied, Content: []model.Content{}},
	}
	p := script(t, `{"mock_script":1,"responses":[{"text":"resumed"}]}`)
	rec := &memRecorder{}
	a, err := New(Config{Provider: p, Recorder: rec, History: history})
	if err != nil {
		t.Fatal(err)
	}
	run, _ := a.Start(context.Background(), model.UserText("continue"))
	wantLines(t, briefs(drain(t, run), false),
		"agent_start 1",
		"message_start tool_result c2 unknown", "message_end tool_result c2 unknown",
		"turn_start 1",
		"message_start user continue", "message_end user continue",
		"message_start assistant", "message_end assistant end",
		"turn_end 1 results=0",
		"agent_end completed", "settled")
	checkPairing(t, a.Messages())
	if got := resultText(rec.messages()[0].(model.ToolResultMessage)); !strings.HasPrefix(got, "interrupted: the previous session ended") {
		t.Fatalf("result = %q", got)
	}
}

// TestStartAfterAgentEndWaitsForSettled: a consumer that starts the next
// run as soon as it sees agent_end gets a run that begins after the
// previous one settled, with sequence numbers still in order.
func TestStartAfterAgentEndWaitsForSettled(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"text":"one"},{"text":"two"}]}`)
	a := newAgent(t, p, &memRecorder{})
	r1, _ := a.Start(context.Background(), model.UserText("a"))
	var r2 *Run
	var last uint64
	for ev := range r1.Events() {
		last = ev.Sequence()
		if _, ok := ev.(protocol.AgentEnd); ok {
			var err error
			if r2, err = a.Start(context.Background(), model.UserText("b")); err != nil {
				t.Fatalf("start after agent_end: %v", err)
			}
		}
	}
	evs := drain(t, r2)
	if evs[0].Sequence() != last+1 {
		t.Fatalf("second run starts at seq %d after %d", evs[0].Sequence(), last)
	}
}

// TestCallsCarryTheInvocationDirectory: tools get the configured working
// directory, not the process's.
func TestCallsCarryTheInvocationDirectory(t *testing.T) {
	dir := t.TempDir()
	p := script(t, `{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},{"text":"ok"}]}`)
	var got string
	tool := &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) {
		got = c.Cwd
		return textResult("x"), nil
	}}
	a, err := New(Config{Provider: p, Recorder: &memRecorder{}, Tools: []Tool{tool}, Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	if got != dir {
		t.Fatalf("call cwd = %q; want %q", got, dir)
	}
}
