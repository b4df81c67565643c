package providers

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
)

// BenchmarkDecodeChunk is the latency the plugin adds per chunk: the
// longest recorded stream of each wire format fed through core's decoder
// on the shipped plugin, one SSE event per chunk (as servers flush them),
// whole responses per iteration. Metric: ns per chunk. Set
// SMITH_PROVIDERS_DIR to a directory of artifacts (an earlier build) to
// measure it instead of this directory's build.
func BenchmarkDecodeChunk(b *testing.B) {
	for _, bc := range []struct{ provider, fixture string }{
		{"openai-compatible", "openai-compatible/deepseek-length.sse"},
		{"openai", "openai-responses/reasoning-summary-tool-call.sse"},
		{"anthropic", "anthropic/thinking-tool-call.sse"},
		{"google", "google/vertex-streamed-function-args.sse"},
	} {
		body := mustRead(b, filepath.Join(fixtureRoot, bc.fixture))
		chunks := eventChunks(body)
		b.Run(filepath.Base(bc.fixture), func(b *testing.B) {
			ctx := context.Background()
			gen := codecInstances(b)
			var events []model.StreamEvent
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				d, err := provider.NewDecoder(ctx, gen, codecOf(b, bc.provider), provider.DecodeOptions{Provider: bc.provider, Model: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				for _, c := range chunks {
					if events, err = d.Decode(ctx, c, events[:0]); err != nil {
						b.Fatal(err)
					}
				}
				if _, err = d.Finish(ctx, events[:0]); err != nil {
					b.Fatal(err)
				}
				d.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(chunks)), "ns/chunk")
		})
	}
}

// eventChunks splits a body after each blank line (LF LF or CRLF CRLF),
// as a server flushing every event writes it.
func eventChunks(body []byte) [][]byte {
	var out [][]byte
	for len(body) > 0 {
		i := bytes.Index(body, []byte("\n\n"))
		n := 2
		if j := bytes.Index(body, []byte("\r\n\r\n")); j >= 0 && (i < 0 || j < i) {
			i, n = j, 4
		}
		if i < 0 {
			return append(out, body)
		}
		out = append(out, body[:i+n])
		body = body[i+n:]
	}
	return out
}
