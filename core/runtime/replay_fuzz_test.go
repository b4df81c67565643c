package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// writeTurns writes a session of n turns, each a prompt, a read call with
// its effect and result, and an answer, through the session store.
func writeTurns(tb testing.TB, path string, n int) {
	tb.Helper()
	f, err := sessionfmt.Create(path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	st, err := session.New(f)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	fail := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	fail(st.RecordMetadata(session.Metadata{Cwd: "/nonexistent/project", Smith: "test"}))
	fail(st.RecordModelChange(session.ModelChange{Model: "mock"}))
	usage := model.Usage{Input: model.Known(120), Output: model.Known(30), CacheRead: model.Known(0), CacheWrite: model.Known(0),
		Reasoning: model.Unknown(), CostNanoUSD: model.Known(900)}
	for i := range n {
		call := fmt.Sprintf("call_%d", i)
		fail(st.Record(ctx, model.UserText(fmt.Sprintf("what does file %d say?", i))))
		fail(st.Record(ctx, model.AssistantMessage{Content: []model.Content{model.Text{Text: "Reading it."},
			model.ToolCall{ID: call, Name: "read", Arguments: json.RawMessage(fmt.Sprintf(`{"path":"f%d.txt"}`, i))}},
			Provider: "mock", Model: "mock-model", ResponseID: fmt.Sprintf("mock-resp-%d", i), Stop: model.StopToolUse, Usage: usage}))
		id := sessionfmt.NewID().String()
		fail(st.Append(ctx, effect.Intent{ID: id, Parent: call, Generation: 1, Kind: "fs.read", Input: json.RawMessage(fmt.Sprintf(`{"path":"f%d.txt"}`, i))}))
		fail(st.Append(ctx, effect.Completion{ID: id, Mutation: model.MutationApplied, Output: []byte(`{"Text":"hi"}`)}))
		fail(st.Record(ctx, model.ToolResultMessage{CallID: call, Name: "read", Content: []model.Content{model.Text{Text: "hi\n"}}, Mutation: model.MutationApplied}))
		fail(st.Record(ctx, model.AssistantMessage{Content: []model.Content{model.Text{Text: fmt.Sprintf("File %d says hi.", i)}},
			Provider: "mock", Model: "mock-model", Stop: model.StopEnd, Usage: usage}))
	}
}

// bareRuntime is a runtime with no plugins over a fresh home.
func bareRuntime(tb testing.TB) *Runtime {
	tb.Helper()
	dir := tb.TempDir()
	rt, err := Open(context.Background(), Config{Cwd: dir, Home: filepath.Join(dir, "home"), Version: "test",
		LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = rt.Close(context.Background()) })
	return rt
}

// FuzzReplay replays damaged session files (truncated, flipped bytes,
// garbage): no panic; a file replay cannot read is an error naming it and
// 'smith session repair'; the file is never written.
func FuzzReplay(f *testing.F) {
	seed := filepath.Join(f.TempDir(), "seed.session")
	writeTurns(f, seed, 2)
	good, err := os.ReadFile(seed)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	flipped := bytes.Clone(good)
	flipped[len(flipped)/3] ^= 0x5a
	f.Add(flipped)
	f.Add(good[:40])
	f.Add([]byte("garbage, not a session file\n"))
	f.Add(append(bytes.Clone(good), 0xff, 0x00, 0x13))
	rt := bareRuntime(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(dir, "damaged.session")
		_ = os.Remove(path)
		if err := os.WriteFile(path, b, 0o400); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(path)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := rt.Replay(ctx, path, ReplayOptions{Emit: func(ev ReplayEvent) error {
			_, err := protocol.MarshalEvent(ev.Event)
			return err
		}})
		if err != nil && (!strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "smith session repair")) {
			t.Fatalf("error %q does not name the file and 'smith session repair'", err)
		}
		after, _ := os.ReadFile(path)
		st, _ := os.Stat(path)
		if !bytes.Equal(after, b) || !st.ModTime().Equal(before.ModTime()) {
			t.Fatal("replay wrote the session file")
		}
		if _, err := os.Stat(path + ".lock"); err == nil {
			t.Fatal("replay took the writer lock")
		}
	})
}

// BenchmarkReplay1000Turns replays a 1,000-turn session in instant mode:
// "events" only rebuilds the events, "json" also encodes each as a JSON
// line (the work of --output json).
func BenchmarkReplay1000Turns(b *testing.B) {
	path := filepath.Join(b.TempDir(), "long.session")
	writeTurns(b, path, 1000)
	rt := bareRuntime(b)
	ctx := context.Background()
	for _, encode := range []bool{false, true} {
		name := "events"
		if encode {
			name = "json"
		}
		b.Run(name, func(b *testing.B) {
			var events int
			b.ReportAllocs()
			for b.Loop() {
				events = 0
				rep, err := rt.Replay(ctx, path, ReplayOptions{Emit: func(ev ReplayEvent) error {
					events++
					if !encode {
						return nil
					}
					_, err := protocol.MarshalEvent(ev.Event)
					return err
				}})
				if err != nil || rep.Turns != 1000 || !rep.Matched() {
					b.Fatalf("replay: %v %+v", err, rep)
				}
			}
			b.ReportMetric(float64(events), "events/op")
		})
	}
}
