package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
)

// benchApp is an app over a mock runtime in a 120×40 fake terminal,
// driven directly (no loop goroutine), with a transcript of n items.
func benchApp(b *testing.B, n int) (*App, *fakeTerm) {
	w := newWorld(b)
	rt := w.Open("mock", true)
	ft := newFakeTerm(120, 40)
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	a := newApp(ctx, Options{Runtime: rt, Term: ft, Render: screen.RendererOptions{Profile: screen.ANSI256, SyncOutput: true}})
	for i := range n {
		switch i % 4 {
		case 0:
			a.tr.add(&item{kind: kindUser, text: fmt.Sprintf("question %d: what does this function do?", i)})
		case 1:
			a.tr.add(&item{kind: kindAssistant, text: fmt.Sprintf("## Answer %d\n\nIt reads the **file** and returns `n` lines:\n\n- one\n- two\n", i)})
		case 2:
			a.tr.add(&item{kind: kindTool, name: "bash", args: "go test ./...", output: strings.Repeat("ok  \tpkg\t0.01s\n", 12), done: true})
		default:
			a.tr.add(&item{kind: kindAssistant, text: "Done."})
		}
	}
	a.draw()
	return a, ft
}

// BenchmarkStreamDelta: one streamed text delta into a 2,000-item
// transcript, laid out and drawn: the frame time of streaming, and the
// bytes it writes to the terminal.
func BenchmarkStreamDelta(b *testing.B) {
	a, ft := benchApp(b, 2000)
	a.feed(protocol.AgentStart{Run: 1})
	a.feed(protocol.MessageStart{Message: model.AssistantMessage{}})
	a.feed(protocol.MessageUpdate{Delta: model.TextDelta{Text: "Streaming "}})
	a.draw()
	ft.bytes = 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		word := "word "
		if i%12 == 11 {
			word = "end.\n\n"
		}
		a.feed(protocol.MessageUpdate{Delta: model.TextDelta{Text: word}})
		a.draw()
	}
	b.ReportMetric(float64(ft.bytes)/float64(b.N), "bytes/frame")
}

// BenchmarkKeypressEcho: one typed character, handled and drawn, with a
// 2,000-item transcript above the input box.
func BenchmarkKeypressEcho(b *testing.B) {
	a, ft := benchApp(b, 2000)
	ft.bytes = 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		a.input(input.Key{Code: 'x', Text: "x"})
		if i%64 == 63 {
			a.editor.Reset()
		}
		a.draw()
	}
	b.ReportMetric(float64(ft.bytes)/float64(b.N), "bytes/frame")
}
