package rpc

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
)

// rpcDoc is the protocol's documentation, at the repository root.
const rpcDoc = "../../../docs/rpc.md"

// paramsOf is the params type each method decodes; nil for none.
var paramsOf = map[string]any{
	protocol.MethodPrompt:          protocol.PromptParams{},
	protocol.MethodSteer:           protocol.InputParams{},
	protocol.MethodFollowUp:        protocol.InputParams{},
	protocol.MethodQueueSet:        protocol.SetQueueParams{},
	protocol.MethodWait:            protocol.WaitParams{},
	protocol.MethodConfirm:         protocol.ConfirmParams{},
	protocol.MethodSessionOpen:     protocol.SessionRefParams{},
	protocol.MethodSessionNew:      protocol.NewSessionParams{},
	protocol.MethodSessionFork:     protocol.ForkParams{},
	protocol.MethodSessionSelect:   protocol.SelectParams{},
	protocol.MethodSessionLabel:    protocol.LabelParams{},
	protocol.MethodSessionDiff:     protocol.DiffParams{},
	protocol.MethodSessionSnapshot: protocol.SnapshotParams{},
	protocol.MethodSessionUndo:     protocol.UndoParams{},
	protocol.MethodSessionRedo:     protocol.RedoParams{},
	protocol.MethodSessionRestore:  protocol.RestoreParams{},
	protocol.MethodSessionCompact:  protocol.CompactParams{},
	protocol.MethodModelSet:        protocol.SetModelParams{},
	protocol.MethodCommandsRun:     protocol.RunCommandParams{},
}

// TestDocumented: docs/rpc.md has a section for every method the server
// serves, in the order of protocol.RPCMethods and no other; each section's
// params table lists exactly the params the method decodes; the error
// table lists every code; and the example transcript is made of valid
// messages of known methods.
func TestDocumented(t *testing.T) {
	b, err := os.ReadFile(rpcDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	served := slices.Sorted(func(yield func(string) bool) {
		for name := range methodTable() {
			if !yield(name) {
				return
			}
		}
	})
	if declared := slices.Sorted(slices.Values(protocol.RPCMethods)); !slices.Equal(served, declared) {
		t.Fatalf("the server serves %v; protocol.RPCMethods lists %v", served, declared)
	}
	heading := regexp.MustCompile("(?m)^### `([a-z_.]+)`$")
	var documented []string
	for _, m := range heading.FindAllStringSubmatch(doc, -1) {
		documented = append(documented, m[1])
	}
	if !slices.Equal(documented, protocol.RPCMethods) {
		t.Fatalf("docs/rpc.md documents\n%v\nthe server serves\n%v", documented, protocol.RPCMethods)
	}
	methodsAt := strings.Index(doc, "## Methods")
	sections := heading.Split(doc[methodsAt:], -1)[1:]
	last := sections[len(sections)-1]
	sections[len(sections)-1] = last[:strings.Index(last, "\n## ")]
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|")
	for i, name := range protocol.RPCMethods {
		var rows []string
		for _, m := range row.FindAllStringSubmatch(sections[i], -1) {
			rows = append(rows, m[1])
		}
		want := jsonFields(paramsOf[name])
		if !slices.Equal(rows, want) {
			t.Errorf("%s: docs/rpc.md lists the params %v; the method takes %v", name, rows, want)
		}
		if !strings.Contains(sections[i], "Result") {
			t.Errorf("%s: docs/rpc.md does not say what it returns", name)
		}
	}
	codeRow := regexp.MustCompile(`(?m)^\| (-3[0-9]+) \|`)
	var codes []int
	for _, m := range codeRow.FindAllStringSubmatch(doc, -1) {
		n, _ := strconv.Atoi(m[1])
		codes = append(codes, n)
	}
	wantCodes := []int{protocol.CodeParseError, protocol.CodeInvalidRequest, protocol.CodeMethodNotFound, protocol.CodeInvalidParams,
		protocol.CodeInternalError, protocol.CodeFailed, protocol.CodeUsage, protocol.CodeBusy, protocol.CodeNoSession, protocol.CodeShuttingDown}
	if !slices.Equal(codes, wantCodes) {
		t.Errorf("docs/rpc.md lists the error codes %v; the server answers with %v", codes, wantCodes)
	}
	checkTranscript(t, doc)
}

// checkTranscript checks the example's complete lines.
func checkTranscript(t *testing.T, doc string) {
	t.Helper()
	n := 0
	for _, line := range strings.Split(doc, "\n") {
		dir, msg, ok := strings.Cut(line, " ")
		if (dir != "→" && dir != "←") || !ok || strings.Contains(msg, "…") || !strings.HasPrefix(msg, "{") {
			continue
		}
		n++
		var m message
		if err := json.Unmarshal([]byte(msg), &m); err != nil {
			t.Errorf("example line %s: %v", msg, err)
			continue
		}
		switch {
		case dir == "→" && m.Method != "statee" && !slices.Contains(protocol.RPCMethods, m.Method):
			t.Errorf("example request %s: no method %q", msg, m.Method)
		case dir == "←" && m.Method == protocol.RPCEventMethod:
			if _, err := protocol.UnmarshalEvent(m.Params); err != nil {
				t.Errorf("example event %s: %v", msg, err)
			}
		case dir == "←" && (m.Result == nil) == (m.Error == nil):
			t.Errorf("example response %s has not exactly one of result and error", msg)
		}
	}
	if n < 10 {
		t.Errorf("the example transcript has %d complete messages; want a whole session", n)
	}
}

// jsonFields returns the JSON member names of struct value v, in order.
func jsonFields(v any) []string {
	if v == nil {
		return nil
	}
	var out []string
	rt := reflect.TypeOf(v)
	for i := range rt.NumField() {
		tag := rt.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}
