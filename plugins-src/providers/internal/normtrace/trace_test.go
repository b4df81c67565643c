package normtrace_test

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// strange is an event type outside norm's closed set; only a test can
// make one.
type strange struct{ norm.Event }

func TestTrace(t *testing.T) {
	u := norm.Usage{Input: norm.Known(10), Output: norm.Known(20), CacheRead: norm.Known(0), CacheWrite: norm.Known(math.MinInt64)}
	tests := []struct {
		name   string
		events []norm.Event
	}{
		{"none", nil},
		{"every event", []norm.Event{
			norm.Start{Provider: "anthropic", Model: "claude-x", ResponseID: "msg_1"},
			norm.TextDelta{Index: 0, Text: "hello\n", Signature: []byte("sig"), ItemID: "msg_2", Phase: "commentary"},
			norm.ThinkingDelta{Index: 1, Text: "hm", Signature: []byte("c2ln"), Encrypted: []byte("enc"), Redacted: true, Format: "anthropic-claude-v1", ItemID: "rs_1"},
			norm.ToolCallStart{Index: 2, ID: "call_1", Name: "read", ItemID: "fc_1"},
			norm.ToolCallDelta{Index: 2, Arguments: `{"path":"a"}`},
			norm.ToolCallEnd{Index: 2, Signature: []byte("ts")},
			norm.OtherBlock{Index: 3, Type: "server_tool_use", Raw: []byte(`{"type":"server_tool_use"}`)},
			norm.Done{Reason: norm.StopToolUse, Raw: "tool_use", Usage: u, UsageRaw: []byte(`{"input_tokens":10}`)},
			norm.StreamError{Err: &norm.Error{Kind: norm.ErrRateLimit, Message: "slow down", Retryable: true, RetryAfter: 1500 * time.Millisecond,
				HTTPStatus: 429, ProviderType: "rate_limit_error", Code: "rl", RequestID: "req_1"}, Raw: "error", Usage: u, UsageRaw: []byte("{}")},
		}},
		{"quoting", []norm.Event{
			norm.TextDelta{Text: "\a\b\f\n\r\t\v\x00\x1f\x7f \"\\ é€😀\ufffd", Signature: []byte("\xff\xc3(\xed\xa0\x80")},
		}},
		{"zero values", []norm.Event{norm.Done{}, norm.StreamError{}, norm.ThinkingDelta{}}},
		{"foreign type", []norm.Event{strange{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := normtrace.Trace(tt.events)
			var appended []byte
			for _, ev := range tt.events {
				appended = normtrace.AppendEvent(appended, ev)
			}
			if string(appended) != got {
				t.Fatalf("AppendEvent wrote %q, Trace %q", appended, got)
			}
			golden := filepath.Join("testdata", strings.ReplaceAll(tt.name, " ", "-")+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v; run go test -update to write it", err)
			}
			if got != string(want) {
				t.Fatalf("the trace differs from %s (check it, then run go test -update):\n got:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

func TestTraceAllocs(t *testing.T) {
	events := []norm.Event{norm.ToolCallDelta{Index: 1, Arguments: "{}"}, norm.Done{Reason: norm.StopEnd}}
	b := make([]byte, 0, 4096)
	allocs := testing.AllocsPerRun(100, func() {
		b = b[:0]
		for _, ev := range events {
			b = normtrace.AppendEvent(b, ev)
		}
	})
	if allocs != 0 {
		t.Fatalf("AppendEvent allocated %v times into a large enough buffer; want 0", allocs)
	}
}
