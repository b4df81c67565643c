package textout

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// hostile holds one sample of each ECMA-48 class a terminal acts on.
var hostile = []struct{ name, text string }{
	{"CSI clear screen", "before\x1b[2Jafter"},
	{"CSI colour", "\x1b[31mred\x1b[0m"},
	{"OSC title with BEL", "\x1b]0;pwned\x07"},
	{"OSC hyperlink with ST", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"},
	{"OSC 52 clipboard", "\x1b]52;c;ZXZpbA==\x07"},
	{"DCS", "\x1bPq#0;2;0;0;0\x1b\\"},
	{"APC", "\x1b_Gf=100;AAAA\x1b\\"},
	{"PM and SOS", "\x1b^pm\x1b\\\x1bXsos\x1b\\"},
	{"bare ESC", "a\x1bcb\x1b7\x1b8"},
	{"C1 CSI and OSC", "\u009b2J\u009d0;t\u009c"},
	{"C0 controls", "bell\x07back\x08\x0bvt\x0cff\x00nul\x7fdel"},
	{"lone CR rewrites the line", "safe\rEVIL"},
	{"invalid UTF-8 hiding a C1", "\xc2\x9b2J"},
}

// terminalSafe reports what in out a terminal would act on, "" if nothing.
func terminalSafe(out string) string {
	if !utf8.ValidString(out) {
		return "invalid UTF-8"
	}
	for _, r := range out {
		switch {
		case r == '\t' || r == '\n':
		case r < 0x20 || r == 0x7f:
			return "C0 control " + jsonQuote(string(r))
		case r >= 0x80 && r <= 0x9f:
			return "C1 control " + jsonQuote(string(r))
		}
	}
	return ""
}

func jsonQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestSafe(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"clean text is kept", "héllo\tworld\n✓", "héllo\tworld\n✓"},
		{"ESC is shown", "\x1b[2J", "␛[2J"},
		{"BEL and NUL", "\x07\x00", "␇␀"},
		{"DEL", "a\x7fb", "a␡b"},
		{"CRLF is a line end", "a\r\nb", "a\nb"},
		{"lone CR is shown", "a\rb", "a␍b"},
		{"C1", "\u009bx", "\ufffdx"},
		{"invalid bytes", "a\xffb", "a\ufffdb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Safe(tt.in); got != tt.want {
				t.Fatalf("Safe(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	if n := testing.AllocsPerRun(10, func() { _ = Safe("a clean line of model text\n") }); n != 0 {
		t.Fatalf("clean text allocated %.0f times", n)
	}
}

// TestWriterNeutralizesControls: hostile content in every place text
// output shows it — streamed text, tool arguments, tool results, notices,
// provider errors — reaches the output with nothing a terminal acts on.
func TestWriterNeutralizesControls(t *testing.T) {
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			var out bytes.Buffer
			w := &Writer{W: &out}
			evs := []protocol.Event{
				protocol.MessageUpdate{Delta: model.TextDelta{Text: h.text}},
				protocol.ToolExecutionStart{Name: "bash" + h.text, Arguments: json.RawMessage(`{"command":"` + strings.ToValidUTF8(h.text, "") + `"}`)},
				protocol.ToolExecutionEnd{Name: "bash", Result: model.ToolResultMessage{Content: []model.Content{model.Text{Text: h.text}}}},
				protocol.Notice{Level: protocol.NoticeWarning, Text: h.text},
				protocol.ProviderRetry{Target: "p/m", Error: &model.Error{Kind: model.ErrServer, Message: h.text}, WaitMillis: 5},
			}
			for _, ev := range evs {
				if err := w.Event(ev); err != nil {
					t.Fatal(err)
				}
			}
			if what := terminalSafe(out.String()); what != "" {
				t.Fatalf("%s reached the output: %q", what, out.String())
			}
		})
	}
}

func FuzzSafe(f *testing.F) {
	for _, h := range hostile {
		f.Add(h.text)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Safe(s)
		if what := terminalSafe(out); what != "" {
			t.Fatalf("Safe(%q) = %q: %s", s, out, what)
		}
		if terminalSafe(s) == "" && !strings.Contains(s, "\r") && out != s {
			t.Fatalf("Safe changed clean text %q to %q", s, out)
		}
	})
}
