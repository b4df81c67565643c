package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/smith/internal/testworld"

	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/termtest"
)

// fakeTerm is a terminal in memory: frames go to an emulator, events come
// from the test.
type fakeTerm struct {
	mu     sync.Mutex
	emu    *termtest.Emulator
	w, h   int
	events chan input.Event
	copied []string
	writes int
	bytes  int
}

func newFakeTerm(w, h int) *fakeTerm {
	return &fakeTerm{emu: termtest.NewEmulator(w, h), w: w, h: h, events: make(chan input.Event, 256)}
}

func (f *fakeTerm) Events() <-chan input.Event { return f.events }

func (f *fakeTerm) Size() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w, f.h
}

func (f *fakeTerm) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	f.bytes += len(p)
	return f.emu.Write(p)
}

func (f *fakeTerm) Copy(text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.copied = append(f.copied, text)
	return nil
}

// resize changes the size and tells the app, as SIGWINCH would.
func (f *fakeTerm) resize(w, h int) {
	f.mu.Lock()
	f.w, f.h = w, h
	f.emu = termtest.NewEmulator(w, h)
	f.mu.Unlock()
	f.events <- input.Resize{Width: w, Height: h}
}

// screen returns the emulator's rows joined by newlines, trailing blanks
// trimmed.
func (f *fakeTerm) screen() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return screenText(f.emu.Screen())
}

func screenText(b *screen.Buffer) string {
	var rows []string
	for y := range b.Height() {
		var sb strings.Builder
		for _, c := range b.Row(y) {
			sb.WriteString(c.Content)
		}
		rows = append(rows, strings.TrimRight(sb.String(), " "))
	}
	return strings.Join(rows, "\n")
}

// typeText sends text as key presses.
func (f *fakeTerm) typeText(s string) {
	for _, r := range s {
		f.events <- input.Key{Code: r, Text: string(r)}
	}
}

// press sends the key named k ("enter", "ctrl+c").
func (f *fakeTerm) press(tb testing.TB, k string) {
	tb.Helper()
	key, err := input.ParseKey(k)
	if err != nil {
		tb.Fatal(err)
	}
	f.events <- key
}

// waitFor waits until the screen holds every want, failing after 20s with
// the screen.
func (f *fakeTerm) waitFor(tb testing.TB, want ...string) string {
	tb.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := f.screen()
		ok := true
		for _, w := range want {
			if !strings.Contains(s, w) {
				ok = false
			}
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the screen did not show %q within 20s; it shows:\n%s", want, s)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// world is the test's project and Smith home (smith/internal/testworld).
type world = testworld.World

func newWorld(tb testing.TB) *world { return testworld.New(tb, "smith-tui-test-cache") }

// started is a running app.
type started struct {
	term *fakeTerm
	done chan error
	sess chan *runtime.Session
}

// start runs the app over rt in a w×h fake terminal; the test's cleanup
// quits it.
func start(tb testing.TB, rt *runtime.Runtime, w, h int, o Options) *started {
	tb.Helper()
	// The plugin generation loaded first, so its key bindings are in place
	// from the first key (the app loads them in the background).
	if _, err := rt.Presentation(context.Background()); err != nil {
		tb.Fatal(err)
	}
	ft := newFakeTerm(w, h)
	o.Runtime, o.Term = rt, ft
	o.Render = screen.RendererOptions{Profile: screen.ANSI256, SyncOutput: true}
	s := &started{term: ft, done: make(chan error, 1), sess: make(chan *runtime.Session, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		sess, err := Run(ctx, o)
		s.sess <- sess
		s.done <- err
	}()
	// The plugins' presentation (keys, theme, layout) arrives in the
	// background; its placeholder says it has.
	ft.waitFor(tb, "Ask Smith to do something")
	tb.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(20 * time.Second):
			tb.Error("the app did not end within 20s of its context")
		}
	})
	return s
}

// quit presses ctrl+c twice and waits for Run to return its session.
func (s *started) quit(tb testing.TB) *runtime.Session {
	tb.Helper()
	s.term.press(tb, "ctrl+c")
	s.term.press(tb, "ctrl+c")
	select {
	case sess := <-s.sess:
		if err := <-s.done; err != nil {
			tb.Fatalf("Run: %v", err)
		}
		s.done <- nil
		return sess
	case <-time.After(20 * time.Second):
		tb.Fatalf("ctrl+c twice did not quit within 20s; the screen:\n%s", s.term.screen())
	}
	return nil
}

// waitIdle waits until the status line (the screen's last line) starts
// with the idle hint "/ for commands" — the input box's placeholder says
// it too, and a narrow status line may cut "esc to abort" off, so neither
// is a sign — failing after 20s with the screen.
func waitIdle(t *testing.T, s *started) {
	t.Helper()
	idle := func() bool {
		lines := strings.Split(strings.TrimRight(s.term.screen(), "\n "), "\n")
		return strings.HasPrefix(strings.TrimSpace(lines[len(lines)-1]), "/ for commands")
	}
	for deadline := time.Now().Add(20 * time.Second); !idle(); {
		if time.Now().After(deadline) {
			t.Fatalf("still running after 20s:\n%s", s.term.screen())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
