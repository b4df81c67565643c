package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// TestMaxCost: a run stops cleanly before the request that would start
// over its budget, and before any request once a response's cost is
// unknown; every tool call still has its result.
func TestMaxCost(t *testing.T) {
	call := `{"tool_calls":[{"id":"c%d","name":"read","arguments":{"path":"a"}}],"usage":{"input":10,"output":5,"cost_nano_usd":%s}}`
	tests := []struct {
		name     string
		costs    []string // of the responses, in order
		max      int64
		requests int
		reason   protocol.EndReason
		err      string
	}{
		{name: "under the budget", costs: []string{"100000000", "100000000", "100000000"}, max: 1e9, requests: 3, reason: protocol.EndCompleted},
		{name: "reached", costs: []string{"600000000", "600000000", "100000000"}, max: 1e9, requests: 2, reason: protocol.EndMaxCost,
			err: "it has spent $1.2000 of its budget of $1.0000 (from flag --max-cost)"},
		{name: "unknown cost", costs: []string{"null", "100", "100"}, max: 1e9, requests: 1, reason: protocol.EndMaxCost,
			err: "the cost of a response is unknown"},
		{name: "no budget, unknown cost", costs: []string{"null", "null", "null"}, requests: 3, reason: protocol.EndCompleted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rs []string
			for i, c := range tt.costs[:2] {
				rs = append(rs, strings.NewReplacer("%d", string(rune('1'+i)), "%s", c).Replace(call))
			}
			rs = append(rs, `{"text":"done","usage":{"input":10,"output":5,"cost_nano_usd":`+tt.costs[2]+`}}`)
			p := script(t, `{"mock_script":1,"responses":[`+strings.Join(rs, ",")+`]}`)
			rec := &memRecorder{}
			a, err := New(Config{Provider: p, Model: "mock-model", Recorder: rec, MaxCost: tt.max, MaxCostSource: "flag --max-cost",
				Tools: []Tool{&funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) { return textResult("x"), nil }}}})
			if err != nil {
				t.Fatal(err)
			}
			run, _ := a.Start(context.Background(), model.UserText("go"))
			drain(t, run)
			end := run.Wait()
			if end.Reason != tt.reason || len(p.Requests()) != tt.requests || !strings.Contains(end.Error, tt.err) {
				t.Fatalf("agent_end %+v after %d requests; want %s after %d, error with %q", end, len(p.Requests()), tt.reason, tt.requests, tt.err)
			}
			checkPairing(t, rec.messages())
		})
	}
}
