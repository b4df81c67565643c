package openaichat_test

import (
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openaichat"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openairesp"
)

// bldBenchCases are the requests the builders are timed on: follow-ups
// sending a recorded reasoning and tool-call turn back.
func bldBenchCases(b *testing.B) map[string]bldCase {
	root := fixtures.Root(b)
	or, err := endpoints.Lookup("openrouter")
	if err != nil {
		b.Fatal(err)
	}
	chat := bldHistory(b, filepath.Join(root, "openai-compatible", "openrouter-anthropic-reasoning-tool-call.sse"))
	resp := bldHistory(b, filepath.Join(root, "openai-responses", "reasoning-summary-tool-call.sse"))
	req := func(h norm.AssistantMessage) *norm.Request {
		return &norm.Request{Model: "m", System: bldSysPlain, Tools: bldWeatherTools, Thinking: norm.ThinkingMedium, CacheKey: "s",
			Messages: bldFollowUp(bldAskWeather, h, []string{"40 C"}, false)}
	}
	return map[string]bldCase{
		"chat-openrouter":     {api: bldChat, ref: "OPENROUTER_API_KEY", quirks: or.Quirks, req: req(chat)},
		"responses-encrypted": {api: bldResp, ref: "OPENAI_API_KEY", req: req(resp)},
	}
}

// BenchmarkBuildGo times the Go builders.
func BenchmarkBuildGo(b *testing.B) {
	for name, c := range bldBenchCases(b) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if c.api == bldResp {
					_, err = openairesp.BuildRequest(c.req, c.ref)
				} else {
					_, err = openaichat.BuildRequest(c.req, c.quirks, c.ref)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildRust times the Rust builders built natively (-C
// opt-level=2, no overflow checks, as the plugin is built); the driver
// times the b.N builds itself, so ns/op excludes the pipe to it.
func BenchmarkBuildRust(b *testing.B) {
	d := rustdriver.Start(b, buildDriverRoot)
	for name, c := range bldBenchCases(b) {
		b.Run(name, func(b *testing.B) {
			p := binary.LittleEndian.AppendUint32(nil, uint32(b.N))
			p = append(p, byte(c.api))
			p = bldRequest(bldQuirks(bldStr(p, c.ref), c.quirks), c.req)
			rep := d.Ask(b, 't', p)
			if len(rep) != 16 || binary.LittleEndian.Uint64(rep[8:]) == 0 {
				b.Fatalf("driver reply %q: the Rust builder failed", rep)
			}
			b.ReportMetric(float64(binary.LittleEndian.Uint64(rep))/float64(b.N), "rust-ns/op")
		})
	}
}
