package gemini_test

import (
	"encoding/binary"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/gemini"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

// benchRequest is the request of the richest fixture: the Gemini 3
// follow-up with a tool, thinking, and the recorded call, its thought
// signature and its result.
func benchRequest(b *testing.B) *norm.Request {
	b.Helper()
	return fixtureRequests(b)["gemini3-text-trailing-signature.request.json"]
}

// BenchmarkBuildGo builds the request natively with the Go builder.
func BenchmarkBuildGo(b *testing.B) {
	r := benchRequest(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := gemini.BuildRequest(r, "GEMINI_API_KEY"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildRust builds the same request natively with the Rust
// builder (timed inside the driver, without overflow checks, so neither
// the pipe nor the document parse is counted) and reports ns per build.
func BenchmarkBuildRust(b *testing.B) {
	r := benchRequest(b)
	d := rustdriver.Start(b, buildRoot, "-C", "overflow-checks=off")
	p := binary.LittleEndian.AppendUint32(nil, uint32(b.N))
	p = appendField(p, []byte("GEMINI_API_KEY"))
	p = appendField(p, []byte(r.Model))
	p = append(p, normtrace.Document(r)...)
	b.ResetTimer()
	reply := d.Ask(b, 't', p)
	b.StopTimer()
	if len(reply) != 16 {
		b.Fatalf("gemini: the driver's timing reply is %d bytes, want 16", len(reply))
	}
	if binary.LittleEndian.Uint64(reply[8:]) == 0 {
		b.Fatal("gemini: the Rust builder built no body")
	}
	b.ReportMetric(float64(binary.LittleEndian.Uint64(reply))/float64(b.N), "ns/build")
}
