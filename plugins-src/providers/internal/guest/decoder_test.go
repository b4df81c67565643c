package guest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/smith-agent/smith/wit/provider"
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

func extensions(t *testing.T, evs []provider.StreamEvent) []Extension {
	t.Helper()
	var out []Extension
	for _, e := range evs {
		if e.Case != provider.StreamEventUnknown {
			continue
		}
		rest, ok := strings.CutPrefix(e.Unknown, ExtensionPrefix)
		if !ok {
			t.Fatalf("unknown event %q without the extension prefix", e.Unknown)
		}
		var x Extension
		if err := json.Unmarshal([]byte(rest), &x); err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
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

// TestDecoderEvents checks the mapping to the world's events: signatures
// and redacted reasoning arrive before the terminal event on block-end,
// with the encrypted payload as an extension, in every chunking.
func TestDecoderEvents(t *testing.T) {
	for _, n := range []int{1, 7, len(anthropicThinking)} {
		evs := decodeAll(t, "anthropic", anthropicThinking, n)
		var cases []string
		for _, e := range evs {
			cases = append(cases, e.Case.String())
		}
		want := "unknown start thinking-delta thinking-delta tool-call-start tool-call-delta block-end block-end unknown block-end usage unknown done"
		if got := strings.Join(cases, " "); got != want {
			t.Fatalf("chunks of %d: events\n got %s\nwant %s", n, got, want)
		}
		if s := evs[6].BlockEnd; s.Index != 2 || s.Signature != nil {
			t.Errorf("tool block-end %+v", s)
		}
		if s := evs[7].BlockEnd; s.Index != 0 || s.Signature == nil || *s.Signature != "SIG==" {
			t.Errorf("thinking block-end %+v; want the signature byte-exact", s)
		}
		if s := evs[9].BlockEnd; s.Index != 1 || s.Signature != nil {
			t.Errorf("redacted block-end %+v", s)
		}
		xs := extensions(t, evs)
		if len(xs) != 3 || xs[0].Kind != "start" || xs[0].Model != "claude-x" ||
			xs[1].Kind != "thinking" || xs[1].Index != 1 || !xs[1].Redacted || string(xs[1].Encrypted) != "ENC" ||
			xs[2].Kind != "stop" || xs[2].Raw != "tool_use" {
			t.Errorf("extensions %+v", xs)
		}
		if u := evs[10].Usage; u.Input == nil || *u.Input != 5 || u.Output == nil || *u.Output != 9 || u.Reasoning != nil {
			t.Errorf("usage %+v; want input 5, output 9, reasoning unknown", u)
		}
		if evs[12].Done != provider.StopReasonToolUse {
			t.Errorf("stop %v; want tool-use", evs[12].Done)
		}
	}
}

func TestDecoderFailure(t *testing.T) {
	body := "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
	evs := decodeAll(t, "anthropic", body, len(body))
	last := evs[len(evs)-1]
	if last.Case != provider.StreamEventFailure || last.Failure.Message != "Overloaded" {
		t.Fatalf("last event %+v; want the failure", last)
	}
	xs := extensions(t, evs)
	if x := xs[len(xs)-1]; x.Kind != "error" || x.ErrorKind != "overloaded" || x.ProviderType != "overloaded_error" || !x.Retryable {
		t.Errorf("error extension %+v", x)
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
