package conformance

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// chunkings are the ways every body is fed to its decoder; all must give
// the same result.
var chunkings = []struct {
	name  string
	split func(body []byte) [][]byte
}{
	{"whole", func(b []byte) [][]byte { return [][]byte{b} }},
	{"bytes", func(b []byte) [][]byte { return sizes(b, func() int { return 1 }) }},
	{"random1", randomSplit(1)},
	{"random2", randomSplit(2)},
	{"random3", randomSplit(3)},
	{"after-cr", func(b []byte) [][]byte { // every CRLF split between CR and LF
		var out [][]byte
		for len(b) > 0 {
			i := bytes.IndexByte(b, '\r')
			if i < 0 {
				return append(out, b)
			}
			out = append(out, b[:i+1])
			b = b[i+1:]
		}
		return out
	}},
}

func randomSplit(seed uint64) func([]byte) [][]byte {
	return func(b []byte) [][]byte {
		r := rand.New(rand.NewPCG(seed, seed))
		return sizes(b, func() int { return 1 + r.IntN(97) })
	}
}

func sizes(b []byte, next func() int) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n := min(next(), len(b))
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

// decodeChunks runs one decoder over chunks and returns a copy of every
// event.
func decodeChunks(d norm.Decoder, chunks [][]byte) []norm.Event {
	var events []norm.Event
	for _, c := range chunks {
		events = append(events, d.Feed(c)...)
	}
	return append(events, d.Close()...)
}

type streamFixture struct {
	Tests  string          `json:"tests"`
	Expect json.RawMessage `json:"expect"`
}

// TestFixturesDecode decodes every NAME.sse under the fixture root to its
// NAME.expect.json, in every chunking.
func TestFixturesDecode(t *testing.T) {
	root := fixtures.Root(t)
	bodies, err := filepath.Glob(filepath.Join(root, "*", "*.sse"))
	if err != nil || len(bodies) == 0 {
		t.Fatalf("conformance: no *.sse fixtures under %s (%v)", root, err)
	}
	for _, path := range bodies {
		vendor := filepath.Base(filepath.Dir(path))
		name := vendor + "/" + strings.TrimSuffix(filepath.Base(path), ".sse")
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var fx streamFixture
			raw, err := os.ReadFile(strings.TrimSuffix(path, ".sse") + ".expect.json")
			if err != nil {
				t.Fatalf("conformance: %s has no expect.json beside it: %v", path, err)
			}
			if err := json.Unmarshal(raw, &fx); err != nil {
				t.Fatalf("conformance: parse %s.expect.json: %v", name, err)
			}
			want := decodeNumbers(t, fx.Expect)
			api, _ := want.(map[string]any)["api"].(string)
			checkIncremental(t, vendor, body)
			var first any
			for _, ch := range chunkings {
				d, err := codec.NewDecoder(codec.API(vendorAPI(vendor)), vendor)
				if err != nil {
					t.Fatal(err)
				}
				events := decodeChunks(d, ch.split(body))
				got, err := result(api, d.Framing(), events)
				if err != nil {
					t.Fatalf("%s chunking: events break the protocol: %v", ch.name, err)
				}
				delete(got, "error_kind") // the expectations state the vendor type, not our kind
				delete(got, "retry_after_ms")
				gotN := normalizeJSON(got)
				if first == nil {
					first = gotN
					c := comparer{synth: map[string]string{}, compactRaw: api == "gemini"}
					c.compare("expect", want, gotN)
					if len(c.diffs) > 0 {
						t.Errorf("%s (%s)\n%s", name, fx.Tests, strings.Join(c.diffs, "\n"))
					}
					continue
				}
				c := comparer{synth: map[string]string{}}
				c.compare("whole", first, gotN)
				if len(c.diffs) > 0 {
					t.Errorf("%s chunking differs from whole-body decoding:\n%s", ch.name, strings.Join(c.diffs, "\n"))
				}
			}
		})
	}
}

// vendorAPI maps a fixture folder to the wire API that decodes it.
func vendorAPI(vendor string) string {
	switch vendor {
	case "openai-compatible":
		return "openai-chat"
	case "google":
		return "gemini"
	}
	return vendor
}

func decodeNumbers(t *testing.T, raw []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// checkIncremental feeds a body one byte at a time and requires every
// non-terminal event to come out of Feed, as soon as its SSE event is
// complete, rather than being held back until Close: a decoder that
// buffered the whole response would pass the comparisons but not stream.
func checkIncremental(t *testing.T, vendor string, body []byte) {
	t.Helper()
	d, err := codec.NewDecoder(codec.API(vendorAPI(vendor)), vendor)
	if err != nil {
		t.Fatal(err)
	}
	content := func(es []norm.Event) int {
		n := 0
		for _, e := range es {
			switch e.(type) {
			case norm.TextDelta, norm.ThinkingDelta, norm.ToolCallDelta:
				n++
			}
		}
		return n
	}
	var firstHalf, total int
	for i := range body {
		n := content(d.Feed(body[i : i+1]))
		total += n
		if i < len(body)/2 {
			firstHalf += n
		}
	}
	// A long stream has deltas all along: by half the body, a streaming
	// decoder has delivered a good share of them.
	if total >= 20 && firstHalf < total/5 {
		t.Errorf("only %d of %d content deltas were delivered by the middle of the body; the decoder is not streaming", firstHalf, total)
	}
	complete := bytes.HasSuffix(body, []byte("\n\n")) || bytes.HasSuffix(body, []byte("\r\n\r\n"))
	for _, e := range d.Close() {
		switch e.(type) {
		case norm.Done, norm.StreamError:
		default:
			if complete {
				t.Errorf("Close returned %T for a body whose events were all complete: the decoder held it back", e)
			}
		}
	}
}
