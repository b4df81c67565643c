package guest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/smith-agent/smith/wit/provider"
	"github.com/smith-agent/smith/wit/types"
)

// decodeAll feeds body in chunks of n bytes and finishes.
func decodeAll(t *testing.T, name, body string, n int) []provider.StreamEvent {
	t.Helper()
	d := Plugin{}.NewDecoder(provider.DecodeOptions{Provider: name, Status: 200, ContentType: "text/event-stream"})
	var out []provider.StreamEvent
	for i := 0; i < len(body); i += n {
		evs, err := d.DecodeChunk([]byte(body[i:min(i+n, len(body))]))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, evs...)
	}
	evs, err := d.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return append(out, evs...)
}

const anthropicThinking = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude-x\",\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n" +
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n" +
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"hmm\"}}\n\n" +
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"SIG==\"}}\n\n" +
	"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"ENC\"}}\n\n" +
	"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n" +
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}}\n\n" +
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":1}\"}}\n\n" +
	"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":2}\n\n" +
	"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":9}}\n\n" +
	"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"

// TestDecoderEvents checks the mapping to the world's events: the
// responding model on start, signatures and redacted reasoning on
// block-end before the terminal event, the vendor's raw stop value and
// usage object on done, in every chunking.
func TestDecoderEvents(t *testing.T) {
	for _, n := range []int{1, 7, len(anthropicThinking)} {
		evs := decodeAll(t, "anthropic", anthropicThinking, n)
		var cases []string
		for _, e := range evs {
			cases = append(cases, e.Case.String())
		}
		want := "start thinking-delta thinking-delta tool-call-start tool-call-delta block-end block-end block-end usage done"
		if got := strings.Join(cases, " "); got != want {
			t.Fatalf("chunks of %d: events\n got %s\nwant %s", n, got, want)
		}
		if s := evs[0].Start; s.ID != "msg_1" || s.Model != "claude-x" {
			t.Errorf("start %+v; want msg_1 from claude-x", s)
		}
		if s := evs[5].BlockEnd; s.Index != 2 || s.Signature != nil || s.Encrypted != nil || s.Redacted {
			t.Errorf("tool block-end %+v", s)
		}
		if s := evs[6].BlockEnd; s.Index != 0 || s.Signature == nil || *s.Signature != "SIG==" || s.Encrypted != nil || s.Redacted {
			t.Errorf("thinking block-end %+v; want the signature byte-exact", s)
		}
		if s := evs[7].BlockEnd; s.Index != 1 || s.Signature != nil || !s.Redacted || s.Encrypted == nil || string(*s.Encrypted) != "ENC" {
			t.Errorf("redacted block-end %+v; want redacted with the data ENC", s)
		}
		if u := evs[8].Usage; u.Input == nil || *u.Input != 5 || u.Output == nil || *u.Output != 9 || u.Reasoning != nil {
			t.Errorf("usage %+v; want input 5, output 9, reasoning unknown", u)
		}
		d := evs[9].Done
		if d.Reason != provider.StopReasonToolUse || d.RawStop == nil || *d.RawStop != "tool_use" {
			t.Errorf("done %+v; want tool-use from the raw tool_use", d)
		}
		if d.RawUsage == nil || !json.Valid([]byte(*d.RawUsage)) || !strings.Contains(*d.RawUsage, `"output_tokens":9`) {
			t.Errorf("done raw usage %v; want the vendor's last usage object", d.RawUsage)
		}
	}
}

// TestDecoderEncrypted: a reasoning item's encrypted content reaches the
// block-end of its thinking block, byte-exact.
func TestDecoderEncrypted(t *testing.T) {
	body := "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"model\":\"o-x\"}}\n\n" +
		"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[]}}\n\n" +
		"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"reasoning\",\"id\":\"rs_1\",\"summary\":[],\"encrypted_content\":\"gAAA+/=\"}}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"usage\":{\"input_tokens\":3,\"output_tokens\":4}}}\n\n"
	evs := decodeAll(t, "openai", body, 5)
	var ends []provider.BlockEnd
	for _, e := range evs {
		if e.Case == provider.StreamEventBlockEnd {
			ends = append(ends, e.BlockEnd)
		}
	}
	if len(ends) != 1 || ends[0].Encrypted == nil || string(*ends[0].Encrypted) != "gAAA+/=" || ends[0].Redacted {
		t.Fatalf("block-ends %+v; want one with the encrypted content gAAA+/=", ends)
	}
}

func TestDecoderFailure(t *testing.T) {
	body := "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"},\"request_id\":\"req_9\"}\n\n"
	evs := decodeAll(t, "anthropic", body, len(body))
	last := evs[len(evs)-1]
	if last.Case != provider.StreamEventFailure {
		t.Fatalf("last event %+v; want the failure", last)
	}
	f := last.Failure.Failure
	if f.Kind != types.FailureKindOverloaded || f.Message != "Overloaded" || !f.Retryable || f.HTTPStatus != nil ||
		f.ProviderType == nil || *f.ProviderType != "overloaded_error" {
		t.Errorf("failure %+v; want retryable overloaded (overloaded_error) without a status", f)
	}
}

func TestDecoderFaults(t *testing.T) {
	d := Plugin{}.NewDecoder(provider.DecodeOptions{Provider: "acme"})
	var f provider.CodecFault
	if _, err := d.DecodeChunk([]byte("x")); !errors.As(err, &f) || f.Case != provider.CodecFaultUnknownProvider {
		t.Errorf("decode for an unknown provider: %v", err)
	}
	d = Plugin{}.NewDecoder(provider.DecodeOptions{Provider: "anthropic"})
	if _, err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Finish(); err == nil || !strings.Contains(err.Error(), "finish called twice") {
		t.Errorf("second Finish: %v", err)
	}
}

func TestPackSignature(t *testing.T) {
	tests := []struct {
		name, format, sig string
	}{
		{name: "plain", sig: "Eq0ECkgI=="},
		{name: "formatted", format: "anthropic-claude-v1", sig: "Eq0ECkgI=="},
		{name: "empty signature", format: "f", sig: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := PackSignature(tt.format, []byte(tt.sig))
			if tt.format == "" && string(p) != tt.sig {
				t.Errorf("a signature without format must cross unchanged; got %q", p)
			}
			f, s := UnpackSignature(p)
			if f != tt.format || string(s) != tt.sig {
				t.Errorf("round trip gave (%q, %q)", f, s)
			}
		})
	}
}

// TestDecoderMalformed: a body that breaks the protocol ends in a malformed
// failure, a kind the world names.
func TestDecoderMalformed(t *testing.T) {
	body := "event: message_start\ndata: {not json\n\n"
	evs := decodeAll(t, "anthropic", body, 3)
	last := evs[len(evs)-1]
	if last.Case != provider.StreamEventFailure || last.Failure.Failure.Kind != types.FailureKindMalformed || last.Failure.Failure.Retryable {
		t.Fatalf("last event %+v; want a non-retryable malformed failure", last)
	}
}
