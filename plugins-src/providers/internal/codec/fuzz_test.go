package codec

import (
	"reflect"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

var apis = []API{Anthropic, OpenAIChat, OpenAIResponses, Gemini}

func decodeAll(t *testing.T, api API, chunks [][]byte) []norm.Event {
	d, err := NewDecoder(api, "fuzz")
	if err != nil {
		t.Fatal(err)
	}
	var out []norm.Event
	for _, c := range chunks {
		out = append(out, d.Feed(c)...)
	}
	return append(out, d.Close()...)
}

// FuzzDecoders feeds arbitrary bodies to every decoder: none may panic,
// every stream ends with exactly one terminal event, the events obey the
// stream protocol, and splitting the body differently changes nothing.
func FuzzDecoders(f *testing.F) {
	f.Add(uint8(0), []byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\n"), uint8(3))
	f.Add(uint8(1), []byte("data: {\"id\":\"c\",\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"x\",\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n"), uint8(1))
	f.Add(uint8(2), []byte("event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"item\":{\"id\":\"fc\",\"type\":\"function_call\",\"call_id\":\"c\"}}\n\n"), uint8(5))
	f.Add(uint8(3), []byte("data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"g\",\"willContinue\":true}}]}}]}\r\n\r\n{\n\"error\":{\"code\":500}\n}\n"), uint8(2))
	f.Fuzz(func(t *testing.T, which uint8, body []byte, step uint8) {
		api := apis[int(which)%len(apis)]
		whole := decodeAll(t, api, [][]byte{body})
		var chunks [][]byte
		n := int(step%13) + 1
		for i := 0; i < len(body); {
			end := min(i+n, len(body))
			chunks = append(chunks, body[i:end])
			i, n = end, n%5+1
		}
		split := decodeAll(t, api, chunks)
		if !reflect.DeepEqual(whole, split) {
			t.Fatalf("%s: chunking changed the events:\nwhole %#v\nsplit %#v", api, whole, split)
		}
		if len(whole) == 0 {
			t.Fatalf("%s: no events, want at least the terminal one", api)
		}
		var asm norm.Assembler
		for i, e := range whole {
			switch e.(type) {
			case norm.Done, norm.StreamError:
				if i != len(whole)-1 {
					t.Fatalf("%s: terminal event %d of %d is not the last", api, i, len(whole))
				}
			default:
				if i == len(whole)-1 {
					t.Fatalf("%s: the last event %T is not terminal", api, e)
				}
			}
			if err := asm.Add(e); err != nil {
				t.Fatalf("%s: %v", api, err)
			}
		}
	})
}

// FuzzClassify checks that any status, header and body classify to a
// declared kind without panicking.
func FuzzClassify(f *testing.F) {
	f.Add(uint8(0), 529, "retry-after", "12", []byte(`{"type":"error","error":{"type":"overloaded_error","message":"x"}}`))
	f.Add(uint8(1), 429, "x-should-retry", "true", []byte(`{"error":{"message":"try again in 1s","code":"rate_limit_exceeded"}}`))
	f.Add(uint8(3), 429, "retry-after-ms", "abc", []byte(`{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"x.RetryInfo","retryDelay":"-3s"}]}}`))
	valid := map[norm.ErrorKind]bool{norm.ErrAuth: true, norm.ErrInvalidRequest: true, norm.ErrContextOverflow: true,
		norm.ErrRateLimit: true, norm.ErrQuota: true, norm.ErrOverloaded: true, norm.ErrServer: true, norm.ErrNotFound: true}
	f.Fuzz(func(t *testing.T, which uint8, status int, hk, hv string, body []byte) {
		api := apis[int(which)%len(apis)]
		e, err := ClassifyResponse(api, status, map[string]string{hk: hv}, body, time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if !valid[e.Kind] || e.RetryAfter < 0 {
			t.Fatalf("%s: status %d classified as %q with wait %v", api, status, e.Kind, e.RetryAfter)
		}
	})
}
