package textout

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

func TestWriter(t *testing.T) {
	long := strings.Repeat("line\n", 20)
	priced := model.Usage{Input: model.Known(300), CacheRead: model.Known(1200), CacheWrite: model.Known(0), Output: model.Known(20),
		CostNanoUSD: model.Known(4_200_000)}
	tests := []struct {
		name       string
		events     []protocol.Event
		want, diag string
	}{
		{name: "streamed text ends its line, then the usage", events: []protocol.Event{
			protocol.MessageUpdate{Delta: model.TextDelta{Text: "Hello "}},
			protocol.MessageUpdate{Delta: model.TextDelta{Text: "there"}},
			protocol.MessageEnd{Message: model.AssistantMessage{Usage: priced}},
			protocol.AgentEnd{Reason: protocol.EndCompleted},
		}, want: "Hello there\n", diag: "smith: 1 response · 1,500 tokens in (1,200 read from cache) · 20 out · $0.0042\n"},
		{name: "tool call and result", events: []protocol.Event{
			protocol.MessageUpdate{Delta: model.TextDelta{Text: "Reading."}},
			protocol.ToolExecutionStart{Name: "read", Arguments: json.RawMessage(`{"path":"a"}`)},
			protocol.ToolExecutionEnd{Result: model.ToolResultMessage{Content: []model.Content{model.Text{Text: "x\ny\n"}}}},
		}, want: "Reading.\n→ read {\"path\":\"a\"}\n  x\n  y\n"},
		{name: "long result is cut", events: []protocol.Event{
			protocol.ToolExecutionEnd{Result: model.ToolResultMessage{Content: []model.Content{model.Text{Text: long}}}},
		}, want: strings.Repeat("  line\n", resultLines) + "  … 8 more lines\n"},
		{name: "error result and a failed response: the error is left to the end", events: []protocol.Event{
			protocol.ToolExecutionEnd{Result: model.ToolResultMessage{IsError: true, Content: []model.Content{model.Text{Text: "no such file"}}}},
			protocol.MessageEnd{Message: model.AssistantMessage{Error: &model.Error{Kind: model.ErrOverloaded, Message: "busy"}}},
			protocol.AgentEnd{Reason: protocol.EndProviderError},
		}, want: "  error: no such file\n", diag: "smith: 1 response · the provider reported no usage\n"},
		{name: "retries, failovers and notices are one line each", events: []protocol.Event{
			protocol.Notice{Level: protocol.NoticeWarning, Text: "AGENTS.md was cut at 32 KiB"},
			protocol.ProviderRetry{Target: "a/m", Attempt: 1, WaitMillis: 2000, Error: &model.Error{Kind: model.ErrRateLimit, HTTPStatus: 429}},
			protocol.ProviderFailover{From: "a/m", To: "b/n", Error: &model.Error{Kind: model.ErrOverloaded}},
			protocol.AgentEnd{Reason: protocol.EndAborted},
		}, diag: "smith: warning: AGENTS.md was cut at 32 KiB\nsmith: a/m failed (rate limit, HTTP 429); retrying in 2s (attempt 2)\nsmith: a/m failed (overloaded); trying b/n\n"},
		{name: "a plugin's notice and confirmation", events: []protocol.Event{
			protocol.Notice{Level: protocol.NoticeError, Text: "deploy failed", Plugin: "ship"},
			protocol.ConfirmationRequest{ID: "q1", Plugin: "permissions", Prompt: "Run `bash` `make`?"},
			protocol.ConfirmationEnd{ID: "q1", Outcome: protocol.ConfirmNoUser},
		}, diag: "smith: error: plugin ship: deploy failed\nsmith: plugin permissions asks: Run `bash` `make`?\n" +
			"smith: nobody can answer here, so the answer is no (with the permission policy, --yes approves every call it would ask about)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b, d strings.Builder
			w := &Writer{W: &b, Diag: &d}
			for _, ev := range tt.events {
				if err := w.Event(ev); err != nil {
					t.Fatal(err)
				}
			}
			if b.String() != tt.want || d.String() != tt.diag {
				t.Fatalf("got\n%q\n%q\nwant\n%q\n%q", b.String(), d.String(), tt.want, tt.diag)
			}
		})
	}
}

// TestFailure: a failed run is one paragraph with the kind, the message,
// the status and request id, what to do, and where the transcript is.
func TestFailure(t *testing.T) {
	var tally Tally
	tally.Observe(protocol.MessageEnd{Message: model.AssistantMessage{Error: &model.Error{Kind: model.ErrRateLimit,
		Message: "Rate limited (5 attempts on anthropic/claude)", HTTPStatus: 429, RequestID: "req_1"}}})
	got := tally.Failure("unused", "the session s keeps the transcript")
	want := "the model request failed (rate limit): Rate limited (5 attempts on anthropic/claude) [HTTP 429, request id req_1]. " +
		"What to do: wait a minute and run again, or add a fallback model with a group in smith.kdl; the session s keeps the transcript."
	if got != want {
		t.Fatalf("Failure =\n%q\nwant\n%q", got, want)
	}
	if got := (Tally{}).Failure("agent: boom", "next"); got != "the run failed: agent: boom; next" {
		t.Fatalf("unclassified Failure = %q", got)
	}
	for k := range hints {
		if !k.Valid() {
			t.Errorf("hint for unknown kind %q", k)
		}
	}
}

func TestCountAndDollars(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{name: "small", got: count(999), want: "999"},
		{name: "thousands", got: count(1234567), want: "1,234,567"},
		{name: "zero dollars", got: Dollars(0), want: "$0"},
		{name: "tiny", got: Dollars(50), want: "<$0.0001"},
		{name: "cents", got: Dollars(21_300_000), want: "$0.0213"},
		{name: "wait ms", got: wait(800), want: "800ms"},
		{name: "wait minutes", got: wait(90_000), want: "1m30s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Fatalf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

// TestBufferedAnswerBeforeDiagnostics: with the answer buffered and the
// diagnostics unbuffered on one terminal, the answer's last line is out
// and ended before the usage line.
func TestBufferedAnswerBeforeDiagnostics(t *testing.T) {
	var tty strings.Builder
	out := bufio.NewWriter(&tty)
	w := &Writer{W: out, Diag: &tty}
	for _, ev := range []protocol.Event{
		protocol.MessageUpdate{Delta: model.TextDelta{Text: "Done."}},
		protocol.MessageEnd{Message: model.AssistantMessage{}},
		protocol.AgentEnd{Reason: protocol.EndCompleted},
	} {
		if err := w.Event(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := out.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := tty.String(); !strings.HasPrefix(got, "Done.\nsmith: 1 response") {
		t.Errorf("terminal shows %q", got)
	}
}
