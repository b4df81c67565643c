package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
)

// BenchmarkDecode measures native decode throughput on the longest recorded
// stream of each API, fed as the server flushed it (one SSE event per
// chunk) and in 4 KiB reads. Metrics: MB/s (SetBytes) and ns per chunk.
func BenchmarkDecode(b *testing.B) {
	root := fixtures.Root(b)
	for _, bc := range []struct {
		api     codec.API
		fixture string
	}{
		{codec.OpenAIChat, "openai-compatible/deepseek-length.sse"}, // the longest recorded stream
		{codec.OpenAIChat, "openai-compatible/xai-reasoning-tool-call.sse"},
		{codec.OpenAIResponses, "openai-responses/reasoning-summary-tool-call.sse"},
		{codec.Anthropic, "anthropic/thinking-tool-call.sse"},
		{codec.Gemini, "google/vertex-streamed-function-args.sse"},
	} {
		body, err := os.ReadFile(filepath.Join(root, bc.fixture))
		if err != nil {
			b.Fatal(err)
		}
		for _, split := range []struct {
			name   string
			chunks [][]byte
		}{
			{"events", eventChunks(body)},
			{"4KiB", sizes(body, func() int { return 4096 })},
		} {
			b.Run(filepath.Base(bc.fixture)+"/"+split.name, func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					d, _ := codec.NewDecoder(bc.api, "bench")
					for _, c := range split.chunks {
						d.Feed(c)
					}
					d.Close()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(split.chunks)), "ns/chunk")
			})
		}
	}
}

// eventChunks splits a body after each blank line (LF LF or CRLF CRLF), as
// a server flushing every event writes it.
func eventChunks(body []byte) [][]byte {
	var out [][]byte
	for len(body) > 0 {
		i, n := bytes.Index(body, []byte("\n\n")), 2
		if j := bytes.Index(body, []byte("\n\r\n")); j >= 0 && (i < 0 || j < i) {
			i, n = j, 3
		}
		if i < 0 {
			return append(out, body)
		}
		out = append(out, body[:i+n])
		body = body[i+n:]
	}
	return out
}
