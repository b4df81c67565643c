package provider

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/model"
)

// TestConverterRedactsStreamedText: a registered secret split across
// text, thinking or tool-argument deltas comes out as its reference, the
// text before it is passed on at once, the kept-back tail is flushed at
// the block's end or the response's, and signatures are left alone.
func TestConverterRedactsStreamedText(t *testing.T) {
	const value = "tok-0123456789abcdef"
	var set secret.Set
	if err := set.Add(secret.Secret{Name: "TOK", Value: value}); err != nil {
		t.Fatal(err)
	}
	if err := set.Add(secret.Secret{Name: "NKEY", Value: "nXYZ123456789"}); err != nil {
		t.Fatal(err)
	}
	text := func(i uint32, s string) pluginabi.StreamEvent {
		return pluginabi.StreamEvent{Case: pluginabi.StreamEventTextDelta, TextDelta: pluginabi.ContentDelta{Index: i, Text: s}}
	}
	thinking := func(i uint32, s string) pluginabi.StreamEvent {
		return pluginabi.StreamEvent{Case: pluginabi.StreamEventThinkingDelta, ThinkingDelta: pluginabi.ContentDelta{Index: i, Text: s}}
	}
	toolStart := pluginabi.StreamEvent{Case: pluginabi.StreamEventToolCallStart, ToolCallStart: pluginabi.ToolCallStart{Index: 0, ID: "c1", Name: "bash"}}
	args := func(s string) pluginabi.StreamEvent {
		return pluginabi.StreamEvent{Case: pluginabi.StreamEventToolCallDelta, ToolCallDelta: pluginabi.ContentDelta{Index: 0, Text: s}}
	}
	end := func(i uint32, sig *string) pluginabi.StreamEvent {
		return pluginabi.StreamEvent{Case: pluginabi.StreamEventBlockEnd, BlockEnd: pluginabi.BlockEnd{Index: i, Signature: sig}}
	}
	done := pluginabi.StreamEvent{Case: pluginabi.StreamEventDone, Done: pluginabi.ResponseEnd{Reason: pluginabi.StopReasonEnd}}
	tests := []struct {
		name string
		in   []pluginabi.StreamEvent
		want []model.StreamEvent
	}{
		{name: "split text", in: []pluginabi.StreamEvent{text(0, "the key is tok-0123"), text(0, "456789abcdef, done"), end(0, nil), done},
			want: []model.StreamEvent{model.TextDelta{Text: "the key is "}, model.TextDelta{Text: "${secret:TOK}, done"}, model.Done{Reason: model.StopEnd}}},
		{name: "tail flushed at block end, signature kept", in: []pluginabi.StreamEvent{text(0, "ends with tok-01"), end(0, ptr("SIG-tok-0123456789abcdef")), done},
			want: []model.StreamEvent{model.TextDelta{Text: "ends with "}, model.TextDelta{Text: "tok-01"},
				model.TextDelta{Signature: []byte("SIG-tok-0123456789abcdef")}, model.Done{Reason: model.StopEnd}}},
		{name: "thinking flushed at done", in: []pluginabi.StreamEvent{thinking(0, "hm "+value[:5]), thinking(0, value[5:]), done},
			want: []model.StreamEvent{model.ThinkingDelta{Text: "hm "}, model.ThinkingDelta{Text: "${secret:TOK}"}, model.Done{Reason: model.StopEnd}}},
		{name: "tool arguments", in: []pluginabi.StreamEvent{toolStart, args(`{"command":"echo tok-0`), args(`123456789abcdef"}`), end(0, nil), done},
			want: []model.StreamEvent{model.ToolCallStart{ID: "c1", Name: "bash"}, model.ToolCallDelta{Arguments: `{"command":"echo `},
				model.ToolCallDelta{Arguments: `${secret:TOK}"}`}, model.ToolCallEnd{}, model.Done{Reason: model.StopEnd}}},
		{name: "tool arguments: a newline escape before the rest of a secret stays whole", in: []pluginabi.StreamEvent{toolStart, args(`{"command":"printf 'a\`), args(`nXYZ1234567`), args(`89'"}`), end(0, nil), done},
			want: []model.StreamEvent{model.ToolCallStart{ID: "c1", Name: "bash"}, model.ToolCallDelta{Arguments: `{"command":"printf 'a\`},
				model.ToolCallDelta{Arguments: `nXYZ123456789'"}`}, model.ToolCallEnd{}, model.Done{Reason: model.StopEnd}}},
		{name: "tool arguments: an escaped backslash, then the secret", in: []pluginabi.StreamEvent{toolStart, args(`{"command":"echo \\`), args(`nXYZ123456789"}`), end(0, nil), done},
			want: []model.StreamEvent{model.ToolCallStart{ID: "c1", Name: "bash"}, model.ToolCallDelta{Arguments: `{"command":"echo \\`},
				model.ToolCallDelta{Arguments: `${secret:NKEY}"}`}, model.ToolCallEnd{}, model.Done{Reason: model.StopEnd}}},
		{name: "no secret, nothing kept back", in: []pluginabi.StreamEvent{text(0, "plain "), text(0, "words"), done},
			want: []model.StreamEvent{model.TextDelta{Text: "plain "}, model.TextDelta{Text: "words"}, model.Done{Reason: model.StopEnd}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &converter{provider: "p", model: "m", redactor: &set}
			got := c.add(nil, tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
			var all strings.Builder
			for _, e := range got {
				if d, ok := e.(model.TextDelta); ok {
					all.WriteString(d.Text)
				}
			}
			if strings.Contains(all.String(), value) {
				t.Errorf("the secret's value was passed on: %q", all.String())
			}
		})
	}
}

// TestResolveKeepsBodyJSON: a request body is JSON text; a registered
// secret beginning with an escape's letter ("n…" after `\`) or held
// escaped is redacted without splitting an escape, so the body the
// provider receives is still JSON.
func TestResolveKeepsBodyJSON(t *testing.T) {
	var set secret.Set
	for _, sec := range []secret.Secret{{Name: "NKEY", Value: "nXYZ123456789"}, {Name: "QKEY", Value: `q"uoted-123456`}} {
		if err := set.Add(sec); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, body, want string
	}{
		{name: "newline escape before the rest of the secret", body: `{"content":"a\nXYZ123456789"}`, want: `{"content":"a\nXYZ123456789"}`},
		{name: "escaped backslash, then the secret", body: `{"content":"a\\nXYZ123456789"}`, want: `{"content":"a\\${secret:NKEY}"}`},
		{name: "secret held escaped", body: `{"content":"q\"uoted-123456"}`, want: `{"content":"${secret:QKEY}"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl := pluginabi.RequestTemplate{Method: pluginabi.HTTPMethodPost,
				URL:  []pluginabi.TemplatePart{{Case: pluginabi.TemplatePartLiteral, Literal: "https://example.invalid/v1"}},
				Body: []byte(tt.body)}
			r, err := resolve("p", tpl, func(string) (string, error) { return "", nil }, &set)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(r.req.Body); got != tt.want {
				t.Errorf("body %s was sent as %s, want %s", tt.body, got, tt.want)
			}
			if !json.Valid(r.req.Body) {
				t.Errorf("body %s was sent as %s, which is not JSON", tt.body, r.req.Body)
			}
		})
	}
}
