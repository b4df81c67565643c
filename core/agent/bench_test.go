package agent

import (
	"context"
	"os"
	"testing"

	"github.com/smith-agent/smith/core/mockprovider"
	"github.com/smith-agent/smith/core/model"
)

type nopRecorder struct{}

func (nopRecorder) Record(context.Context, model.Message) error { return nil }

// BenchmarkToolTurn runs one tool-using exchange through the loop: the mock
// asks for a read, the tool answers from memory, the mock replies; every
// event is drained. It measures the loop's own cost (no I/O, no plugins).
func BenchmarkToolTurn(b *testing.B) {
	raw, err := os.ReadFile("testdata/tool_turn.mock.json")
	if err != nil {
		b.Fatal(err)
	}
	sc, err := mockprovider.Parse(raw)
	if err != nil {
		b.Fatal(err)
	}
	tool := readTool(map[string]string{"hello.txt": "hi there\n"})
	prompt := model.UserText("What does hello.txt say?")
	b.ReportAllocs()
	for b.Loop() {
		a, err := New(Config{Provider: mockprovider.New(sc), Recorder: nopRecorder{}, Tools: []Tool{tool}})
		if err != nil {
			b.Fatal(err)
		}
		run, err := a.Start(context.Background(), prompt)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for range run.Events() {
			n++
		}
		if n != 33 {
			b.Fatalf("%d events", n)
		}
	}
}
