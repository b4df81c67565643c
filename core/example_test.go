package core_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/model"
)

type echoTool struct{}

func (echoTool) Definition() model.ToolDefinition {
	return model.ToolDefinition{Name: "echo", Description: "echoes its text",
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}
}

func (echoTool) Execute(ctx context.Context, c *agent.Call) (agent.Result, error) {
	var args struct{ Text string }
	if err := json.Unmarshal(c.Arguments, &args); err != nil {
		return agent.Result{}, err
	}
	return agent.Result{Content: []model.Content{model.Text{Text: args.Text}}}, nil
}

// roleRecorder keeps the roles of the recorded messages; a real recorder
// appends them to the session durably.
type roleRecorder struct{ roles []model.Role }

func (r *roleRecorder) Record(ctx context.Context, m model.Message) error {
	r.roles = append(r.roles, m.Role())
	return nil
}

func Example() {
	script, err := mockprovider.Parse([]byte(`{"mock_script": 1, "responses": [
		{"tool_calls": [{"id": "call_1", "name": "echo", "arguments": {"text": "hi"}}]},
		{"text": "The tool said hi."}]}`))
	if err != nil {
		panic(err)
	}
	rec := &roleRecorder{}
	a, err := agent.New(agent.Config{Provider: mockprovider.New(script), Tools: []agent.Tool{echoTool{}}, Recorder: rec})
	if err != nil {
		panic(err)
	}
	run, err := a.Start(context.Background(), model.UserText("Say hi through the tool."))
	if err != nil {
		panic(err)
	}
	for ev := range run.Events() {
		switch e := ev.(type) {
		case protocol.ToolExecutionEnd:
			fmt.Println("tool", e.Name, "->", e.Result.Mutation)
		case protocol.AgentEnd:
			fmt.Println("end:", e.Reason)
		}
	}
	fmt.Println("recorded:", rec.roles)
	// Output:
	// tool echo -> applied
	// end: completed
	// recorded: [user assistant tool_result assistant]
}
