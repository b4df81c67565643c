package runtime

import (
	"context"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
)

// BenchmarkOpen is runtime.Open alone: the configuration read and the
// background plugin load started (a warm cache: registrations read from
// disk), then Close, which waits for the load and the tools' compile from
// the cache.
func BenchmarkOpen(b *testing.B) {
	w := newWorld(&testing.T{})
	arts := systemPlugins(b)
	cfg := Config{Cwd: w.project, Home: w.home, Plugins: arts, LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok }}
	warm, err := Open(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	_ = warm.Close(context.Background())
	b.Run("open", func(b *testing.B) {
		for range b.N {
			rt, err := Open(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			_ = rt.Close(context.Background())
			b.StartTimer()
		}
	})
	b.Run("open-and-close", func(b *testing.B) {
		for range b.N {
			rt, err := Open(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			_ = rt.Close(context.Background())
		}
	})
}

// BenchmarkMockTurn is a whole tool-using turn in process: Open, a new
// ephemeral session, the mock's read of a file through the tools plugin,
// its answer, Close.
func BenchmarkMockTurn(b *testing.B) {
	t := &testing.T{}
	w := newWorld(t)
	w.write("hello.txt", "hi\n")
	w.write("read.mock.json", readScript)
	cfg := Config{Cwd: w.project, Home: w.home, Plugins: systemPlugins(b), Ephemeral: true, Flags: map[string]string{"model": "mock/read.mock.json"},
		LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok }}
	turn := func() {
		rt, err := Open(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		s, err := rt.NewSession(context.Background(), NewSessionOptions{})
		if err != nil {
			b.Fatal(err)
		}
		sub := s.Subscribe()
		if err := s.Submit(context.Background(), promptText("What does hello.txt say?")); err != nil {
			b.Fatal(err)
		}
		for ev := range sub.Events() {
			if _, ok := ev.(protocol.Settled); ok {
				break
			}
		}
		if err := rt.Close(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	turn()
	b.ResetTimer()
	for range b.N {
		turn()
	}
}
