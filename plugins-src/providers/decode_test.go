package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
)

// chunkings are the ways every body is fed to its decoder; all must give
// the same events.
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

// streams returns every response body the decode goldens cover, keyed by
// its path under testdata: the recorded fixtures
// (fixtures/VENDOR/NAME.sse) and the hand-written streams no recording
// has (streams/PROVIDER/NAME.sse: cut-off streams, in-stream errors,
// arguments cut by a length stop, redacted thinking, missing usage).
func streams(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{fixtureRoot, "testdata/streams"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*", "*.sse"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("no *.sse under %s (%v); restore it from git", dir, err)
		}
		for _, p := range paths {
			out[strings.TrimPrefix(p, "testdata/")] = vendorProvider(filepath.Base(filepath.Dir(p)))
		}
	}
	return out
}

// TestDecodeGolden decodes every stream in every chunking through the
// shipped plugin: all chunkings give the same events, and they are the
// ones in testdata/golden/decode/PATH.trace (one line per event).
func TestDecodeGolden(t *testing.T) {
	for path, name := range streams(t) {
		t.Run(path, func(t *testing.T) {
			body := mustRead(t, filepath.Join("testdata", path))
			var first string
			for _, ch := range chunkings {
				d := decode(t, name, ch.split(body))
				got := trace(d.events)
				if d.err != "" {
					got += "error " + d.err + "\n"
				}
				if ch.name == "whole" {
					first = coalesced(d)
					golden(t, filepath.Join("decode", strings.TrimSuffix(path, ".sse")+".trace"), []byte(got))
					checkProtocol(t, d.events)
					continue
				}
				if got := coalesced(d); got != first {
					t.Errorf("%s chunking differs from the whole body:\n%s\nwhole:\n%s", ch.name, got, first)
				}
			}
		})
	}
}

// TestDecodeStreams feeds every recorded body one byte at a time and
// requires content deltas to come out as their SSE events complete, not
// held back until the end: a decoder that buffered the whole response
// would pass the goldens but not stream.
func TestDecodeStreams(t *testing.T) {
	for path, name := range streams(t) {
		body := mustRead(t, filepath.Join("testdata", path))
		ctx := context.Background()
		d, err := provider.NewDecoder(ctx, codecInstances(t), codecOf(t, name), provider.DecodeOptions{Provider: name, Model: "golden-model"})
		if err != nil {
			t.Fatal(err)
		}
		var firstHalf, total int
		var evs []model.StreamEvent
		for i := range body {
			if evs, err = d.Decode(ctx, body[i:i+1], evs[:0]); err != nil {
				t.Fatalf("%s: byte %d: %v", path, i, err)
			}
			n := 0
			for _, e := range evs {
				switch e.(type) {
				case model.TextDelta, model.ThinkingDelta, model.ToolCallDelta:
					n++
				}
			}
			total += n
			if i < len(body)/2 {
				firstHalf += n
			}
		}
		d.Close()
		if total >= 20 && firstHalf < total/5 {
			t.Errorf("%s: only %d of %d content deltas were delivered by the middle of the body; the decoder is not streaming", path, firstHalf, total)
		}
	}
}

// checkProtocol holds events to the stream contract: exactly one terminal
// event, last; every delta and end after its block's start.
func checkProtocol(t testing.TB, events []model.StreamEvent) {
	t.Helper()
	terminal := 0
	calls := map[int]bool{}
	for i, ev := range events {
		switch e := ev.(type) {
		case model.Done, model.StreamError:
			terminal++
			if i != len(events)-1 {
				t.Errorf("terminal event %d of %d is not the last: %#v", i, len(events), ev)
			}
		case model.ToolCallStart:
			calls[e.Index] = true
		case model.ToolCallDelta:
			if !calls[e.Index] {
				t.Errorf("tool call delta %d before its start", e.Index)
			}
		case model.ToolCallEnd:
			if !calls[e.Index] {
				t.Errorf("tool call end %d before its start", e.Index)
			}
		}
	}
	if terminal != 1 {
		t.Errorf("%d terminal events, want exactly 1", terminal)
	}
}

// coalesced is the trace of d with each run of deltas of one block merged
// into one: how a body is cut may split a delta, never change what the
// stream says.
func coalesced(d decoded) string {
	var out []model.StreamEvent
	for _, ev := range d.events {
		if len(out) > 0 {
			switch e := ev.(type) {
			case model.TextDelta:
				if p, ok := out[len(out)-1].(model.TextDelta); ok && p.Index == e.Index {
					p.Text += e.Text
					p.Signature = append(p.Signature, e.Signature...)
					out[len(out)-1] = p
					continue
				}
			case model.ThinkingDelta:
				if p, ok := out[len(out)-1].(model.ThinkingDelta); ok && p.Index == e.Index {
					p.Text += e.Text
					p.Signature = append(p.Signature, e.Signature...)
					p.Encrypted = append(p.Encrypted, e.Encrypted...)
					p.Redacted = p.Redacted || e.Redacted
					out[len(out)-1] = p
					continue
				}
			case model.ToolCallDelta:
				if p, ok := out[len(out)-1].(model.ToolCallDelta); ok && p.Index == e.Index {
					p.Arguments += e.Arguments
					out[len(out)-1] = p
					continue
				}
			}
		}
		out = append(out, ev)
	}
	s := trace(out)
	if d.err != "" {
		s += "error " + d.err + "\n"
	}
	return s
}

// TestFixturesExpect holds every recorded stream to its NAME.expect.json,
// written by the fixtures' authors independently of this plugin: the text,
// the thinking, the tool calls (name and arguments) and the stop reason of
// the decoded response.
func TestFixturesExpect(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(fixtureRoot, "*", "*.sse"))
	for _, path := range paths {
		t.Run(strings.TrimPrefix(path, fixtureRoot+"/"), func(t *testing.T) {
			var fx struct {
				Expect struct {
					Text      string `json:"text"`
					Thinking  string `json:"thinking"`
					ToolCalls []struct {
						Name      string `json:"name"`
						Arguments any    `json:"arguments"`
					} `json:"tool_calls"`
					Stop struct {
						Reason string `json:"reason"`
					} `json:"stop"`
				} `json:"expect"`
			}
			if err := json.Unmarshal(mustRead(t, strings.TrimSuffix(path, ".sse")+".expect.json"), &fx); err != nil {
				t.Fatal(err)
			}
			want := fx.Expect
			d := decode(t, vendorProvider(filepath.Base(filepath.Dir(path))), [][]byte{mustRead(t, path)})
			var text, thinking strings.Builder
			var names []string
			args := map[int]*strings.Builder{}
			stop := ""
			for _, ev := range d.events {
				switch e := ev.(type) {
				case model.TextDelta:
					text.WriteString(e.Text)
				case model.ThinkingDelta:
					thinking.WriteString(e.Text)
				case model.ToolCallStart:
					names = append(names, e.Name)
					args[len(names)-1] = &strings.Builder{}
				case model.ToolCallDelta:
					args[len(names)-1].WriteString(e.Arguments)
				case model.Done:
					stop = string(e.Reason)
				case model.StreamError:
					stop = "error"
				}
			}
			if text.String() != want.Text || thinking.String() != want.Thinking || stop != want.Stop.Reason {
				t.Errorf("decoded text %q, thinking %q, stop %q; the fixture expects %q, %q, %q",
					text.String(), thinking.String(), stop, want.Text, want.Thinking, want.Stop.Reason)
			}
			if len(names) != len(want.ToolCalls) {
				t.Fatalf("%d tool calls %v; the fixture expects %d", len(names), names, len(want.ToolCalls))
			}
			for i, c := range want.ToolCalls {
				var got any
				if json.Unmarshal([]byte(args[i].String()), &got) != nil && args[i].Len() > 0 {
					got = nil
				}
				if args[i].Len() == 0 {
					got = map[string]any{}
				}
				if names[i] != c.Name || !reflect.DeepEqual(got, c.Arguments) {
					t.Errorf("tool call %d: %s %v; the fixture expects %s %v", i, names[i], got, c.Name, c.Arguments)
				}
			}
		})
	}
}
