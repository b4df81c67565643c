package config

import (
	"strings"
	"testing"
)

// FuzzParse: reading any text never panics, either succeeds or reports
// errors that each name the file, and never reports an error that echoes
// the literal key of a well-formed credential line added to the text.
func FuzzParse(f *testing.F) {
	f.Add("model \"anthropic/claude-sonnet-4-5\"\nthinking \"high\"\nmax-output-tokens 8192\n")
	f.Add("provider \"local\" {\n  api \"openai-compatible\"\n  base-url \"http://127.0.0.1:8000/v1\"\n  quirks { max-tokens-field \"max_tokens\"; no-strict #true }\n}\n")
	f.Add("alias \"fast\" \"a/b\"\ngroup \"g\" \"fast\" \"c/d\"\n")
	f.Add("provider \"a\" { accounts \"w\"; credential account=\"w\" env=\"K\" }\n")
	f.Add("model (u8)\"x\" bad=1 { child }\n")
	f.Add("/- model \"x\"\nmodel #\"raw\"#\n")
	f.Add("model \"unterminated\n")
	f.Add("model-info \"local/q\" { context 32768; max-output 8192; input \"text\" \"image\"; thinking \"off\" \"high\"; price input=1 output=2.5 cache-read=0 cache-write=0; }\n")
	f.Fuzz(func(t *testing.T, text string) {
		const secret = "sk-FUZZ-literal-0042"
		src := text + "\nprovider \"fz\" {\n  credential key=\"" + secret + "\"\n}\n"
		for _, s := range []string{text, src} {
			d, errs := parseDocument(LayerUser, "fuzz.kdl", "", []byte(s), "2026-11-30")
			if len(errs) == 0 {
				continue
			}
			_ = d
			for _, e := range errs {
				msg := e.Error()
				if !strings.HasPrefix(msg, "config: fuzz.kdl:") {
					t.Fatalf("error %q does not name the file", msg)
				}
				if s == src && strings.Contains(msg, secret) {
					t.Fatalf("error %q reveals the literal key", msg)
				}
			}
		}
	})
}
