package provider

import (
	"reflect"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
)

func ptr[T any](v T) *T { return &v }

// TestConverter maps the world's stream events to model events: the
// responding model, encrypted and redacted reasoning, raw stop and usage,
// and failure details, each scrubbed of the request's secret.
func TestConverter(t *testing.T) {
	start := func(id, m string) pluginabi.StreamEvent {
		return pluginabi.StreamEvent{Case: pluginabi.StreamEventStart, Start: pluginabi.ResponseStart{ID: id, Model: m}}
	}
	thinking := pluginabi.StreamEvent{Case: pluginabi.StreamEventThinkingDelta, ThinkingDelta: pluginabi.ContentDelta{Index: 0, Text: "hm"}}
	end := func(b pluginabi.BlockEnd) pluginabi.StreamEvent {
		return pluginabi.StreamEvent{Case: pluginabi.StreamEventBlockEnd, BlockEnd: b}
	}
	done := pluginabi.StreamEvent{Case: pluginabi.StreamEventDone, Done: pluginabi.ResponseEnd{Reason: pluginabi.StopReasonEnd,
		RawStop: ptr("end_turn"), RawUsage: ptr(`{"output_tokens":2}`)}}
	unknown := pluginabi.StreamEvent{Case: pluginabi.StreamEventUnknown, Unknown: `smith.providers/v1 {"kind":"start","model":"x"}`}
	tests := []struct {
		name string
		in   []pluginabi.StreamEvent
		want []model.StreamEvent
	}{
		{name: "the responding model replaces the requested one", in: []pluginabi.StreamEvent{start("r1", "claude-x-2025"), done},
			want: []model.StreamEvent{model.Start{Provider: "p", Model: "claude-x-2025", ResponseID: "r1"},
				model.Done{Reason: model.StopEnd, RawStop: "end_turn", RawUsage: `{"output_tokens":2}`}}},
		{name: "no model named keeps the requested one, unknown events ignored", in: []pluginabi.StreamEvent{unknown, start("r1", ""), unknown, done},
			want: []model.StreamEvent{model.Start{Provider: "p", Model: "m", ResponseID: "r1"},
				model.Done{Reason: model.StopEnd, RawStop: "end_turn", RawUsage: `{"output_tokens":2}`}}},
		{name: "redacted reasoning", in: []pluginabi.StreamEvent{thinking, end(pluginabi.BlockEnd{Index: 0, Encrypted: ptr([]byte("ENC")), Redacted: true})},
			want: []model.StreamEvent{model.ThinkingDelta{Text: "hm"}, model.ThinkingDelta{Encrypted: []byte("ENC"), Redacted: true}}},
		{name: "signature and encrypted reasoning", in: []pluginabi.StreamEvent{thinking,
			end(pluginabi.BlockEnd{Index: 0, Signature: ptr("SIG"), Encrypted: ptr([]byte{0, 1, 0xff})})},
			want: []model.StreamEvent{model.ThinkingDelta{Text: "hm"}, model.ThinkingDelta{Signature: []byte("SIG"), Encrypted: []byte{0, 1, 0xff}}}},
		{name: "empty encrypted reasoning stays present", in: []pluginabi.StreamEvent{thinking, end(pluginabi.BlockEnd{Index: 0, Encrypted: ptr([]byte{})})},
			want: []model.StreamEvent{model.ThinkingDelta{Text: "hm"}, model.ThinkingDelta{Encrypted: []byte{}}}},
		{name: "a thinking block-end without payloads adds nothing", in: []pluginabi.StreamEvent{thinking, end(pluginabi.BlockEnd{Index: 0})},
			want: []model.StreamEvent{model.ThinkingDelta{Text: "hm"}}},
		{name: "in-stream failure details, scrubbed", in: []pluginabi.StreamEvent{{Case: pluginabi.StreamEventFailure, Failure: pluginabi.ResponseFailure{
			Failure: pluginabi.Failure{Kind: pluginabi.FailureKindOverloaded, Message: "busy sekrit", Retryable: false,
				ProviderType: ptr("overloaded_error"), VendorCode: ptr("E sekrit"), RequestID: ptr("req_1")},
			RawStop: ptr("error"), RawUsage: ptr(`{"k":"sekrit"}`)}}},
			want: []model.StreamEvent{model.StreamError{Err: &model.Error{Kind: model.ErrOverloaded, Message: "busy [redacted]",
				ProviderType: "overloaded_error", Code: "E [redacted]", RequestID: "req_1"}, RawStop: "error", RawUsage: `{"k":"[redacted]"}`}}},
		{name: "malformed with a status", in: []pluginabi.StreamEvent{{Case: pluginabi.StreamEventFailure, Failure: pluginabi.ResponseFailure{
			Failure: pluginabi.Failure{Kind: pluginabi.FailureKindMalformed, Message: "not json", HTTPStatus: ptr(uint16(200))}}}},
			want: []model.StreamEvent{model.StreamError{Err: &model.Error{Kind: model.ErrMalformed, Message: "not json", HTTPStatus: 200}}}},
		{name: "a kind newer than the host is malformed", in: []pluginabi.StreamEvent{{Case: pluginabi.StreamEventFailure, Failure: pluginabi.ResponseFailure{
			Failure: pluginabi.Failure{Kind: pluginabi.FailureKindUnknown, Retryable: true}}}},
			want: []model.StreamEvent{model.StreamError{Err: &model.Error{Kind: model.ErrMalformed, Message: "the provider gave no message", Retryable: true}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &converter{provider: "p", model: "m", requested: "m", secrets: []string{"sekrit"}}
			got := c.add(nil, tt.in)
			for i := range got {
				// Usage is covered elsewhere; these cases report none.
				switch e := got[i].(type) {
				case model.Done:
					e.Usage = model.Usage{}
					got[i] = e
				case model.StreamError:
					e.Usage = model.Usage{}
					got[i] = e
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestClassifyHeaders(t *testing.T) {
	many := make([]string, 100)
	for i := range many {
		many[i] = "1"
	}
	tests := []struct {
		name string
		in   map[string][]string
		want []pluginabi.ResponseHeader
	}{
		{name: "only the listed headers, lower case, sorted", in: map[string][]string{
			"Retry-After": {"3"}, "Set-Cookie": {"s=1"}, "X-Ratelimit-Reset-Tokens": {"2s"}, "Request-Id": {"req_1"},
			"X-Should-Retry": {"false"}, "Content-Type": {"application/json"}, "Retry-After-Ms": {"250"}, "X-Request-Id": {"r"}},
			want: []pluginabi.ResponseHeader{{Name: "request-id", Value: "req_1"}, {Name: "retry-after", Value: "3"},
				{Name: "retry-after-ms", Value: "250"}, {Name: "x-ratelimit-reset-tokens", Value: "2s"},
				{Name: "x-request-id", Value: "r"}, {Name: "x-should-retry", Value: "false"}}},
		{name: "repeated values in order", in: map[string][]string{"X-Should-Retry": {"true", "false"}},
			want: []pluginabi.ResponseHeader{{Name: "x-should-retry", Value: "true"}, {Name: "x-should-retry", Value: "false"}}},
		{name: "none", in: map[string][]string{"Content-Type": {"text/plain"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := classifyHeaders(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("headers %v; want %v", got, tt.want)
			}
		})
	}
	if got := classifyHeaders(map[string][]string{"X-Ratelimit-Remaining": many}); len(got) != maxClassifyHeaders {
		t.Errorf("%d headers passed; want the bound %d", len(got), maxClassifyHeaders)
	}
}
