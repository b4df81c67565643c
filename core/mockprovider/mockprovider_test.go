package mockprovider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

func events(t *testing.T, p *Provider, ctx context.Context) []model.StreamEvent {
	t.Helper()
	s := p.Stream(ctx, &model.Request{Model: "x"})
	defer s.Close()
	var out []model.StreamEvent
	for {
		ev, ok := s.Next()
		if !ok {
			return out
		}
		out = append(out, ev)
	}
}

func TestShorthandExpansion(t *testing.T) {
	s, err := Parse([]byte(`{"mock_script":1,"responses":[
	  {"thinking":"hm ok","text":"a b","tool_calls":[{"id":"c","name":"read","arguments":{"path":"ééééééééé"}}],"usage":{"input":1}},
	  {"text":"x","stop":"length"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := New(s)
	got := events(t, p, context.Background())
	want := []model.StreamEvent{
		model.Start{Provider: "mock", Model: "mock-model", ResponseID: "mock-resp-1"},
		model.ThinkingDelta{Index: 0, Text: "hm "}, model.ThinkingDelta{Index: 0, Text: "ok"},
		model.TextDelta{Index: 1, Text: "a "}, model.TextDelta{Index: 1, Text: "b"},
		model.ToolCallStart{Index: 2, ID: "c", Name: "read"},
		model.ToolCallDelta{Index: 2, Arguments: `{"path":"ééé`},
		model.ToolCallDelta{Index: 2, Arguments: `éééééé"}`},
		model.ToolCallEnd{Index: 2},
		model.Done{Reason: model.StopToolUse, Usage: model.Usage{Input: model.Known(1)}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events:\n got %#v\nwant %#v", got, want)
	}
	if got := events(t, p, context.Background()); got[len(got)-1] != (model.Done{Reason: model.StopLength}) {
		t.Fatalf("second response ends with %#v", got[len(got)-1])
	}
	// Exhausted script: an explicit, labelled failure.
	got = events(t, p, context.Background())
	se, ok := got[len(got)-1].(model.StreamError)
	if !ok || se.Err.Kind != model.ErrInvalidRequest || !strings.Contains(se.Err.Message, "mock script exhausted: request 3 but the script has 2 responses") {
		t.Fatalf("exhausted = %#v", got)
	}
	if n := len(p.Requests()); n != 3 {
		t.Fatalf("requests = %d", n)
	}
}

func TestRawEventsAndErrors(t *testing.T) {
	s, err := Parse([]byte(`{"mock_script":1,"model":"m2","responses":[
	  {"events":[{"type":"start"},{"type":"text_delta","index":0,"text":"cut"}]},
	  {"error":{"kind":"overloaded","message":"busy","retryable":true}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := New(s)
	if got := events(t, p, context.Background()); len(got) != 2 {
		t.Fatalf("raw events = %#v (no terminal added)", got)
	}
	got := events(t, p, context.Background())
	if got[0].(model.Start).Model != "m2" || got[1].(model.StreamError).Err.Kind != model.ErrOverloaded {
		t.Fatalf("error response = %#v", got)
	}
}

func TestHangAfterUnblocksOnCancel(t *testing.T) {
	s, err := Parse([]byte(`{"mock_script":1,"responses":[{"text":"a b","hang_after":1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st := New(s).Stream(ctx, &model.Request{})
	if ev, _ := st.Next(); model.StreamEventType(ev) != "start" {
		t.Fatalf("first = %#v", ev)
	}
	cancel()
	ev, ok := st.Next()
	if se, isErr := ev.(model.StreamError); !ok || !isErr || se.Err.Kind != model.ErrAborted {
		t.Fatalf("after cancel = %#v", ev)
	}
	if _, ok := st.Next(); ok {
		t.Fatal("stream continued after the abort")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"not json", `{`, "mockprovider: script is not a valid mock script object"},
		{"no version", `{"responses":[]}`, `lacks "mock_script": 1`},
		{"unknown field", `{"mock_script":1,"respones":[]}`, `unknown field "respones"`},
		{"bad response field", `{"mock_script":1,"responses":[{"txt":"a"}]}`, `responses[0]: not a response object: json: unknown field "txt"`},
		{"mixed events", `{"mock_script":1,"responses":[{"text":"a","events":[]}]}`, `responses[0]: "events" cannot be combined`},
		{"bad event", `{"mock_script":1,"responses":[{"events":[{"type":"nope"}]}]}`, `responses[0]: events[0]: model: decode stream event: unknown type "nope"`},
		{"bad stop", `{"mock_script":1,"responses":[{"text":"a","stop":"halt"}]}`, `responses[0]: stop "halt" is not a stop reason`},
		{"bad error kind", `{"mock_script":1,"responses":[{"error":{"kind":"boom"}}]}`, `responses[0]: error.kind "boom" is not an error kind`},
		{"call without id", `{"mock_script":1,"responses":[{"tool_calls":[{"name":"x"}]}]}`, `responses[0]: tool_calls[0] needs an id and a name`},
		{"negative hang", `{"mock_script":1,"responses":[{"text":"a","hang_after":-1}]}`, "hang_after is -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want %q", err, tt.want)
			}
		})
	}
	if _, err := Parse(make([]byte, MaxScriptBytes+1)); err == nil || !strings.Contains(err.Error(), "over the 4194304-byte bound") {
		t.Fatalf("oversize err = %v", err)
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(path, []byte(`{"mock_script":2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "(file "+path+")") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "mockprovider: read script") {
		t.Fatalf("err = %v", err)
	}
}

// FuzzParse: parsing never panics, and every parsed response is a stream
// the mock can replay.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"mock_script":1,"responses":[{"text":"hi","tool_calls":[{"id":"c","name":"n","arguments":{"a":"é"}}]}]}`))
	f.Add([]byte(`{"mock_script":1,"responses":[{"events":[{"type":"start"},{"type":"done","reason":"end"}]}]}`))
	f.Add([]byte(`{"mock_script":1,"responses":[{"error":{"kind":"quota","message":"m"}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Parse(b)
		if err != nil {
			return
		}
		for _, r := range s.Responses {
			for _, ev := range r.Events {
				if _, err := json.Marshal(ev); err != nil {
					t.Fatalf("event %#v does not encode: %v", ev, err)
				}
			}
		}
	})
}
