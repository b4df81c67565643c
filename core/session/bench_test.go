package session

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// BenchmarkToolTurnSession runs the tool-using turn of
// TestToolTurnIntoSessionFile into a fresh session file per iteration (the
// tool writes a real file through the journal, the intent is fsynced) and
// reports the session bytes one such turn writes, header included.
func BenchmarkToolTurnSession(b *testing.B) {
	dir := b.TempDir()
	var size int64
	n := 0
	for b.Loop() {
		n++
		path := filepath.Join(dir, strconv.Itoa(n)+".session")
		f, err := sessionfmt.Create(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		st, err := New(f)
		if err != nil {
			b.Fatal(err)
		}
		j, _, err := effect.Open(context.Background(), st, effect.Options{})
		if err != nil {
			b.Fatal(err)
		}
		a, err := agent.New(agent.Config{Provider: provider(b, writeScript), Recorder: st, Tools: []agent.Tool{&writeTool{dir: dir, j: j}}})
		if err != nil {
			b.Fatal(err)
		}
		run, err := a.Start(context.Background(), model.UserText("write hi to out.txt"))
		if err != nil {
			b.Fatal(err)
		}
		if end := drain(run); end.Reason != protocol.EndCompleted {
			b.Fatalf("end = %+v", end)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		info, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		size = info.Size()
	}
	b.ReportMetric(float64(size), "session-bytes/turn")
}
