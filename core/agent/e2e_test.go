package agent

import (
	"bytes"
	"context"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/model"
)

func readTool(files map[string]string) *funcTool {
	return &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) {
		var args struct{ Path string }
		if err := jsonUnmarshal(c.Arguments, &args); err != nil {
			return Result{}, err
		}
		c.Update([]model.Content{model.Text{Text: "reading " + args.Path}})
		body, ok := files[args.Path]
		if !ok {
			return Result{IsError: true, Mutation: model.MutationNotApplied,
				Content: []model.Content{model.Text{Text: "no such file: " + args.Path}}}, nil
		}
		return textResult(body), nil
	}}
}

// TestEndToEndToolTurn: the mock provider asks for a tool call, the fake
// tool runs, the loop continues, the mock answers; the events come out in
// exactly the golden order and content, and the session records the four
// messages in order with the call and its result paired.
func TestEndToEndToolTurn(t *testing.T) {
	p, err := mockprovider.Load("testdata/tool_turn.mock.json")
	if err != nil {
		t.Fatal(err)
	}
	rec := &memRecorder{}
	a := newAgent(t, p, rec, readTool(map[string]string{"hello.txt": "hi there\n"}))
	run, err := a.Start(context.Background(), model.UserText("What does hello.txt say?"))
	if err != nil {
		t.Fatal(err)
	}
	evs := drain(t, run)
	if end := run.Wait(); end.Reason != protocol.EndCompleted {
		t.Fatalf("end = %+v", end)
	}
	var out bytes.Buffer
	for _, ev := range evs {
		b, err := protocol.MarshalEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	golden(t, out.Bytes())

	msgs := rec.messages()
	roles := ""
	for _, m := range msgs {
		roles += string(m.Role()) + " "
	}
	if roles != "user assistant tool_result assistant " {
		t.Fatalf("recorded roles = %s", roles)
	}
	checkPairing(t, msgs)
	reqs := p.Requests()
	if len(reqs) != 2 || len(reqs[1].Messages) != 3 || len(reqs[1].Tools) != 1 || reqs[1].System != "be brief" {
		t.Fatalf("second request = %+v", reqs)
	}
	if res := reqs[1].Messages[2].(model.ToolResultMessage); res.CallID != "call_1" || res.Mutation != model.MutationApplied {
		t.Fatalf("tool result sent back = %+v", res)
	}
	if got := len(a.Messages()); got != 4 {
		t.Fatalf("history has %d messages", got)
	}
}
