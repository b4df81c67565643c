package main

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/wit/provider"
)

// A codec is plain Go: its request building and decoding run natively.
func TestBuildRequest(t *testing.T) {
	doc := `{"system":"be brief","base_url":"http://127.0.0.1:9/","messages":[
	 {"role":"user","content":[{"type":"text","text":"hi"}]},
	 {"role":"assistant","content":[{"type":"tool_call","id":"c1","name":"ls","arguments_text":"{}"}]},
	 {"role":"tool_result","call_id":"c1","content":[{"type":"text","text":"a.txt"}]}]}`
	tpl, err := plugin{}.BuildRequest(provider.RequestSnapshot{Provider: "toy", Model: "echo-1", Document: doc}, provider.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tpl.URL[0].Literal; got != "http://127.0.0.1:9/chat" {
		t.Errorf("url %q", got)
	}
	want := `{"model":"echo-1","system":"be brief","messages":[{"role":"user","text":"hi"},{"role":"assistant","text":"","calls":[{"id":"c1","name":"ls","arguments":"{}"}]},{"role":"tool_result","id":"c1","text":"a.txt"}]}`
	if string(tpl.Body) != want {
		t.Errorf("body\n got %s\nwant %s", tpl.Body, want)
	}
	if _, err := (plugin{}).BuildRequest(provider.RequestSnapshot{Provider: "other"}, provider.BuildOptions{}); err == nil {
		t.Error("another provider's request was built")
	}
}

func TestDecoder(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   string // the events' cases, space-separated
		fault  string
	}{
		{name: "text", chunks: []string{`{"text":"he`, "llo\"}\n{\"done\":\"end\",\"input\":3,\"output\":1}\n"},
			want: "start text-delta block-end usage done"},
		{name: "call", chunks: []string{`{"call":{"id":"c1","name":"ls","arguments":"{}"}}` + "\n" + `{"done":"tool_use"}` + "\n"},
			want: "start tool-call-start tool-call-delta block-end usage done"},
		{name: "cut off", chunks: []string{`{"text":"hi"}` + "\n"}, fault: "ended before its done line"},
		{name: "not json", chunks: []string{"oops\n"}, fault: "not a JSON line: oops"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := plugin{}.NewDecoder(provider.DecodeOptions{Provider: "toy", Status: 200})
			var got []string
			var err error
			for _, c := range tt.chunks {
				var ev []provider.StreamEvent
				if ev, err = d.DecodeChunk([]byte(c)); err != nil {
					break
				}
				got = append(got, cases(ev)...)
			}
			if err == nil {
				var ev []provider.StreamEvent
				ev, err = d.Finish()
				got = append(got, cases(ev)...)
			}
			if tt.fault != "" {
				if err == nil || !strings.Contains(err.Error(), tt.fault) {
					t.Fatalf("err %v, want %q", err, tt.fault)
				}
				return
			}
			if err != nil || strings.Join(got, " ") != tt.want {
				t.Fatalf("events %q, err %v; want %q", got, err, tt.want)
			}
		})
	}
}

func cases(ev []provider.StreamEvent) []string {
	var out []string
	for _, e := range ev {
		out = append(out, e.Case.String())
	}
	return out
}
