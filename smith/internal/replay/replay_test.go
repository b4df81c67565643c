package replay

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// session is a session recorded by `smith eval --model mock "fix the bug"`
// in a demo project.
const session = "testdata/fix-the-bug.session"

func TestParseSpeed(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want float64
		ok   bool
	}{
		{"default", "", 0, true},
		{"instant", "instant", 0, true},
		{"real", "real", 1, true},
		{"double", "2x", 2, true},
		{"half", "0.5x", 0.5, true},
		{"ten", "10x", 10, true},
		{"zero", "0x", 0, false},
		{"negative", "-2x", 0, false},
		{"no unit", "2", 0, false},
		{"word", "fast", 0, false},
		{"nan", "NaNx", 0, false},
		{"infinite", "Infx", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSpeed(tt.in)
			if (err == nil) != tt.ok || s.Factor != tt.want {
				t.Fatalf("ParseSpeed(%q) = %v, %v", tt.in, s, err)
			}
			if err != nil && (!strings.Contains(err.Error(), "--speed") || !strings.Contains(err.Error(), "instant, real, or Nx")) {
				t.Errorf("error %q does not name the flag and the valid forms", err)
			}
		})
	}
}

func TestParseTurns(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		from, to int
		ok       bool
	}{
		{"all", "", 0, 0, true},
		{"range", "2..4", 2, 4, true},
		{"from", "3..", 3, 0, true},
		{"to", "..2", 0, 2, true},
		{"one", "5", 5, 5, true},
		{"same", "2..2", 2, 2, true},
		{"reversed", "4..2", 0, 0, false},
		{"zero", "0..2", 0, 0, false},
		{"open both", "..", 0, 0, false},
		{"negative", "-1..2", 0, 0, false},
		{"plus", "+1..2", 0, 0, false},
		{"three dots", "1...3", 0, 0, false},
		{"words", "first..last", 0, 0, false},
		{"dash", "1-3", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, to, err := ParseTurns(tt.in)
			if (err == nil) != tt.ok || from != tt.from || to != tt.to {
				t.Fatalf("ParseTurns(%q) = %d, %d, %v", tt.in, from, to, err)
			}
			if err != nil && (!strings.Contains(err.Error(), "--turns") || !strings.Contains(err.Error(), "A..B, A.. or ..B")) {
				t.Errorf("error %q does not name the flag and the valid forms", err)
			}
		})
	}
}

func FuzzParseTurns(f *testing.F) {
	for _, s := range []string{"", "1..2", "3..", "..4", "7", "..", "2..1", "0", "1..2..3", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		from, to, err := ParseTurns(s)
		if err != nil {
			if !strings.Contains(err.Error(), "--turns") {
				t.Fatalf("error %q does not name --turns", err)
			}
			return
		}
		if from < 0 || to < 0 || (to > 0 && from > to) {
			t.Fatalf("ParseTurns(%q) = %d, %d", s, from, to)
		}
	})
}

func FuzzParseSpeed(f *testing.F) {
	for _, s := range []string{"", "instant", "real", "2x", "0.5x", "x", "1e400x", "-0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSpeed(s)
		if err == nil && (sp.Factor < 0 || sp.Factor > 1e6 || sp.Factor != sp.Factor) {
			t.Fatalf("ParseSpeed(%q) = %v", s, sp)
		}
	})
}

// TestPacing: real waits the recorded gaps, each capped at MaxGap; Nx
// divides them; instant waits for nothing. A fake sleeper records the
// waits: nothing here depends on the clock.
func TestPacing(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ats := []time.Time{t0, t0.Add(100 * time.Millisecond), {}, t0.Add(100 * time.Millisecond), t0.Add(time.Hour), t0.Add(time.Hour + time.Second)}
	tests := []struct {
		name  string
		speed string
		want  []time.Duration
	}{
		{"instant", "instant", nil},
		{"real", "real", []time.Duration{100 * time.Millisecond, MaxGap, time.Second}},
		{"4x", "4x", []time.Duration{25 * time.Millisecond, MaxGap / 4, 250 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp, err := ParseSpeed(tt.speed)
			if err != nil {
				t.Fatal(err)
			}
			var waits []time.Duration
			var out bytes.Buffer
			p := &Player{Out: &out, JSON: true, Speed: sp, Sleep: func(_ context.Context, d time.Duration) error {
				waits = append(waits, d)
				return nil
			}}
			for i, at := range ats {
				if err := p.Event(t.Context(), runtime.ReplayEvent{Event: protocol.TurnStart{Seq: protocol.Seq{N: uint64(i + 1)}, Turn: 1}, At: at}); err != nil {
					t.Fatal(err)
				}
			}
			if err := p.Flush(); err != nil {
				t.Fatal(err)
			}
			if len(waits) != len(tt.want) {
				t.Fatalf("waits %v, want %v", waits, tt.want)
			}
			for i := range waits {
				if waits[i] != tt.want[i] {
					t.Errorf("waits %v, want %v", waits, tt.want)
				}
			}
			if n := strings.Count(out.String(), "\n"); n != len(ats) {
				t.Errorf("%d lines written, want %d", n, len(ats))
			}
		})
	}
}

// TestPacingCancelled: a wait ends with the context.
func TestPacingCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	t0 := time.Now()
	p := &Player{Out: &bytes.Buffer{}, Speed: Speed{Factor: 1}}
	_ = p.Event(ctx, runtime.ReplayEvent{Event: protocol.Settled{}, At: t0})
	if err := p.Event(ctx, runtime.ReplayEvent{Event: protocol.Settled{}, At: t0.Add(time.Second)}); err == nil {
		t.Fatal("a cancelled wait returned no error")
	}
}

// play replays the recorded session through a Player and returns its
// output.
func play(t *testing.T, json bool) []byte {
	t.Helper()
	dir := t.TempDir()
	rt, err := runtime.Open(t.Context(), runtime.Config{Cwd: dir, Home: filepath.Join(dir, "home"),
		LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	var out bytes.Buffer
	p := &Player{Out: &out, JSON: json}
	rep, err := rt.Replay(t.Context(), session, runtime.ReplayOptions{Emit: func(ev runtime.ReplayEvent) error { return p.Event(t.Context(), ev) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	if !rep.Matched() || rep.Turns != 1 {
		t.Errorf("report %+v", rep)
	}
	if !json {
		out.WriteString(strings.Replace(Summary(rep), rep.Session, "SESSION", 1) + "\n")
	}
	return out.Bytes()
}

// TestGolden: the text and JSON output of the recorded session match
// testdata/ (refresh with go test -update), and two runs are
// byte-identical.
func TestGolden(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		json       bool
	}{{"text", "testdata/fix-the-bug.txt", false}, {"json", "testdata/fix-the-bug.jsonl", true}} {
		t.Run(tt.name, func(t *testing.T) {
			got := play(t, tt.json)
			if again := play(t, tt.json); !bytes.Equal(got, again) {
				t.Fatal("two replays of the same session differ")
			}
			if *update {
				if err := os.WriteFile(tt.file, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (go test -update refreshes it):\n%s", tt.file, got)
			}
		})
	}
}

// TestPromptShown: the text output shows each user input, every line
// marked.
func TestPromptShown(t *testing.T) {
	var out bytes.Buffer
	p := &Player{Out: &out}
	u := model.UserMessage{Content: []model.Content{model.Text{Text: "fix it\nplease\n"}}}
	if err := p.Event(t.Context(), runtime.ReplayEvent{Event: protocol.MessageEnd{Seq: protocol.Seq{N: 1}, Message: u}}); err != nil {
		t.Fatal(err)
	}
	_ = p.Flush()
	if got := out.String(); got != "> fix it\n> please\n" {
		t.Errorf("got %q", got)
	}
}
