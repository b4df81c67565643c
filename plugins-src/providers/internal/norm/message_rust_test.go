package norm_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

// TestRustMessageUnit runs the #[test]s of message.rs (with those of
// norm.rs and jsonout.rs, which its crate root includes).
func TestRustMessageUnit(t *testing.T) {
	rustdriver.RunTests(t, "testdata/message_tests.rs")
}

// TestRustAssembler holds message.rs's Assembler to norm.Assembler: the
// same events refused with the same messages, and the same message.
func TestRustAssembler(t *testing.T) {
	tests := []struct {
		name   string
		events []norm.Event
	}{
		{"every event", everyEvent()},
		{"open calls at the end", []norm.Event{
			norm.Start{Provider: "p"},
			norm.ToolCallStart{Index: 0, ID: "a"}, norm.ToolCallDelta{Index: 0, Arguments: `{"x":`},
			norm.ToolCallStart{Index: 1, ID: "b"}, norm.ToolCallDelta{Index: 1, Arguments: `[1]`},
			norm.ToolCallStart{Index: 2, ID: "c"}, norm.ToolCallDelta{Index: 2, Arguments: " \u00a0"},
		}},
		{"open calls closed by an error", []norm.Event{
			norm.ToolCallStart{Index: 0, ID: "a"}, norm.ToolCallDelta{Index: 0, Arguments: `"s"`},
			norm.ToolCallStart{Index: 1, ID: "b"}, norm.ToolCallDelta{Index: 1, Arguments: `{"b":"<&>"}`},
			norm.Truncated("c", "w", norm.Usage{Output: norm.Known(3)}),
		}},
		{"protocol errors", []norm.Event{
			norm.TextDelta{Index: 1}, norm.TextDelta{Index: 0, Text: "t"}, norm.ThinkingDelta{Index: 0},
			norm.ToolCallDelta{Index: 0}, norm.ToolCallEnd{Index: 4}, norm.ToolCallStart{Index: 0},
			norm.OtherBlock{Index: 3}, norm.Done{Reason: norm.StopEnd}, norm.Start{}, norm.Done{Reason: norm.StopLength},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			compareAssembler(t, tt.events)
		})
	}
	t.Run("random", func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		for range 2000 {
			evs := make([]norm.Event, r.IntN(16))
			for i := range evs {
				evs[i] = randomEvent(r, true)
			}
			compareAssembler(t, evs)
		}
	})
}

// FuzzRustAssembler builds an event stream with small indexes from
// arbitrary bytes and compares the Go and Rust assemblers on it.
func FuzzRustAssembler(f *testing.F) {
	f.Add([]byte("\x03\x00\x01a\x00\x00\x04\x00\x00\x04\x00\x01\x05\x00\x00\x07\x01"))
	f.Add([]byte("\x01\x01\x00\x02\x00\x00\x00\x00\x00\x02\x01"))
	driver(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		compareAssembler(t, genEvents(data, true))
	})
}

func compareAssembler(t *testing.T, events []norm.Event) {
	t.Helper()
	var a norm.Assembler
	var want []byte
	for i, e := range events {
		if err := a.Add(e); err != nil {
			want = strconv.AppendQuoteToASCII(append(strconv.AppendInt(append(want, "E "...), int64(i), 10), ' '), err.Error())
			want = append(want, '\n')
		}
	}
	want = appendMessage(want, a.Message())
	got := driver(t).Ask(t, 'a', encodeEvents(events))
	if !bytes.Equal(got, want) {
		t.Fatalf("the Rust assembler differs from the Go one on\n%s\nrust:\n%s\n  go:\n%s", normtrace.Trace(events), got, want)
	}
}

// appendMessage writes m in the driver's message trace format: a "Msg"
// line, then a line per block, each field " Name=value" with strings and
// bytes quoted by strconv.QuoteToASCII.
func appendMessage(b []byte, m norm.AssistantMessage) []byte {
	field := func(name, v string) {
		b = strconv.AppendQuoteToASCII(append(append(append(b, ' '), name...), '='), v)
	}
	b = append(b, "Msg"...)
	field("Provider", m.Provider)
	field("Model", m.Model)
	field("ResponseID", m.ResponseID)
	field("Stop", string(m.Stop))
	field("StopRaw", m.StopRaw)
	b = normtrace.AppendUsage(append(b, " Usage="...), m.Usage)
	b = normtrace.AppendError(append(b, " Error="...), m.Error)
	b = append(b, '\n')
	for _, c := range m.Content {
		switch c := c.(type) {
		case norm.Text:
			b = append(b, "Text"...)
			field("Text", c.Text)
			field("Signature", string(c.Signature))
			field("Producer", c.Producer)
			field("ItemID", c.ItemID)
			field("Phase", c.Phase)
		case norm.Thinking:
			b = append(b, "Thinking"...)
			field("Text", c.Text)
			field("Signature", string(c.Signature))
			field("Encrypted", string(c.Encrypted))
			b = strconv.AppendBool(append(b, " Redacted="...), c.Redacted)
			field("Format", c.Format)
			field("ItemID", c.ItemID)
			field("Producer", c.Producer)
		case norm.Image:
			b = append(b, "Image"...)
			field("MediaType", c.MediaType)
			field("Data", string(c.Data))
		case norm.ToolCall:
			b = append(b, "ToolCall"...)
			field("ID", c.ID)
			field("Name", c.Name)
			field("Arguments", string(c.Arguments))
			field("ArgumentsError", c.ArgumentsError)
			field("Signature", string(c.Signature))
			field("ItemID", c.ItemID)
			field("Producer", c.Producer)
		case norm.Other:
			b = append(b, "Other"...)
			field("Type", c.Type)
			field("Raw", string(c.Raw))
			field("Producer", c.Producer)
		}
		b = append(b, '\n')
	}
	return b
}

// TestRustFinishArguments holds finish_arguments to norm.FinishArguments.
func TestRustFinishArguments(t *testing.T) {
	tests := []struct {
		name string
		raw  string
	}{
		{"empty", ""},
		{"unicode spaces", " \u00a0\u3000\u2028\u0085\n"},
		{"object with spaces", ` {"a": [1, 2]} `},
		{"array", `[1]`},
		{"string", ` "s"`},
		{"number", `-1.5e3`},
		{"literal", `null`},
		{"invalid", `{<`},
		{"nbsp before an object", "\u00a0{}"},
		{"html and line separators", "\"<&>\u2028\u2029\""},
		{"control bytes", "{\"a\":\"\x01\"}"},
		{"deep", strings.Repeat("[", 10001) + strings.Repeat("]", 10001)},
		{"two values", `{} {}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			compareFinish(t, tt.raw)
		})
	}
}

// FuzzRustFinishArguments compares finish_arguments with
// norm.FinishArguments on arbitrary (valid UTF-8) text.
func FuzzRustFinishArguments(f *testing.F) {
	f.Add(`{"a":1}`)
	f.Add(` [true] `)
	f.Add(`{"a":"b`)
	driver(f)
	f.Fuzz(func(t *testing.T, raw string) {
		compareFinish(t, strings.ToValidUTF8(raw, "\ufffd"))
	})
}

func compareFinish(t *testing.T, raw string) {
	t.Helper()
	args, reason := norm.FinishArguments(raw)
	want := binary.LittleEndian.AppendUint32(nil, uint32(len(args)))
	want = append(append(want, args...), reason...)
	got := driver(t).Ask(t, 'F', []byte(raw))
	if !bytes.Equal(got, want) {
		t.Fatalf("finish arguments %.200q: rust %.300q, go %.300q", raw, got, want)
	}
}
