package guest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/wit/provider"
)

// FuzzBuildRequest: any request document either builds a template whose
// credential is a reference, or is refused with a codec fault; it never
// panics.
func FuzzBuildRequest(f *testing.F) {
	f.Add("anthropic", hiDoc)
	f.Add("openai-compatible", `{"messages":[],"base_url":"http://x.test/v1","quirks":{"echo_reasoning":"reasoning_content"}}`)
	f.Fuzz(func(t *testing.T, name, doc string) {
		tpl, err := Plugin{}.BuildRequest(provider.RequestSnapshot{Provider: name, Model: "m", Document: doc}, provider.BuildOptions{Streaming: true})
		if err != nil {
			if _, ok := err.(provider.CodecFault); !ok {
				t.Fatalf("error %T %v; want a codec fault", err, err)
			}
			return
		}
		for _, h := range tpl.Headers {
			for _, p := range h.Value {
				if p.Case == provider.TemplatePartSecret && !strings.HasSuffix(p.Secret.Name, "_API_KEY") && p.Secret.Name != endpoints.OptionalKey {
					t.Errorf("secret reference %q is not a declared credential", p.Secret.Name)
				}
			}
		}
	})
}

// FuzzUnpackSignature: unpacking never panics, and packing then unpacking
// gives back any format without NUL and any signature.
func FuzzUnpackSignature(f *testing.F) {
	f.Add("anthropic-claude-v1", []byte("Eq0E=="))
	f.Add("", []byte("\x00format=x"))
	f.Fuzz(func(t *testing.T, format string, sig []byte) {
		UnpackSignature(sig)
		if strings.Contains(format, "\x00") {
			return
		}
		gf, gs := UnpackSignature(PackSignature(format, sig))
		if format != "" && (gf != format || !bytes.Equal(gs, sig)) {
			t.Errorf("round trip of (%q, %q) gave (%q, %q)", format, sig, gf, gs)
		}
	})
}

// FuzzDecoder: arbitrary bytes through every provider's decoder, split in
// two, end with exactly one terminal event and never panic.
func FuzzDecoder(f *testing.F) {
	f.Add("anthropic", anthropicThinking, 17)
	f.Add("google", "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\",\"thoughtSignature\":\"c2ln\"}]},\"finishReason\":\"STOP\"}]}\r\n\r\n", 5)
	f.Fuzz(func(t *testing.T, name, body string, cut int) {
		if lookupErr := func() error { _, err := lookup(name); return err }(); lookupErr != nil {
			return
		}
		d := Plugin{}.NewDecoder(provider.DecodeOptions{Provider: name, Status: 200})
		if cut < 0 || cut > len(body) {
			cut = len(body) / 2
		}
		var evs []provider.StreamEvent
		for _, part := range []string{body[:cut], body[cut:]} {
			out, err := d.DecodeChunk([]byte(part))
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, out...)
		}
		out, err := d.Finish()
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, out...)
		terminals := 0
		for _, e := range evs {
			if e.Case == provider.StreamEventDone || e.Case == provider.StreamEventFailure {
				terminals++
			}
		}
		if terminals != 1 || (evs[len(evs)-1].Case != provider.StreamEventDone && evs[len(evs)-1].Case != provider.StreamEventFailure) {
			t.Errorf("%d terminal events, last %v; want exactly one, last", terminals, evs[len(evs)-1].Case)
		}
	})
}
