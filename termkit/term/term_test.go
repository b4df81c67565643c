//go:build linux

package term_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/term"
)

// The helper process: the test binary run again with TERM_HELPER set opens
// the terminal (its controlling tty, a pty the test holds) and leaves it
// the way TERM_HELPER says.
func TestMain(m *testing.M) {
	if mode := os.Getenv("TERM_HELPER"); mode != "" {
		helper(mode)
		return
	}
	os.Exit(m.Run())
}

func helper(mode string) {
	t, err := term.Open(term.Options{Mouse: true, ProbeTimeout: 300 * time.Millisecond, Env: func(k string) string {
		if k == "TERM" {
			return "xterm-256color"
		}
		return ""
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(3)
	}
	report := func(v any) {
		b, _ := json.Marshal(v)
		_ = os.WriteFile(os.Getenv("TERM_REPORT"), b, 0o600)
	}
	defer term.Recover(t)
	switch mode {
	case "close":
		report(t.Caps())
		_ = t.Close()
		_ = t.Close() // idempotent
		os.Exit(0)
	case "error":
		_ = t.Close()
		os.Exit(1)
	case "panic":
		panic("boom in main")
	case "panic-goroutine":
		t.Go(func() { panic("boom in a goroutine") })
		time.Sleep(10 * time.Second)
	case "signal":
		report("ready")
		time.Sleep(10 * time.Second)
	case "suspend":
		err := t.Suspend()
		for ev := range t.Events() {
			if _, ok := ev.(input.Resize); ok {
				break // the redraw request after resuming
			}
		}
		_ = t.Close()
		report(fmt.Sprint(err))
		os.Exit(0)
	case "keys":
		var got []string
		for ev := range t.Events() {
			if k, ok := ev.(input.Key); ok {
				got = append(got, k.String())
				if k.Matches("enter") {
					break
				}
			}
		}
		_ = t.Close()
		report(got)
		os.Exit(0)
	}
	os.Exit(4)
}

// ptyTerm is a pty whose far side the test plays: it records what the
// program writes and can answer the probe.
type ptyTerm struct {
	master, slave *os.File
	mu            sync.Mutex
	out           bytes.Buffer
	answer        string // written once the probe arrives
	answered      bool
}

func newPty(t *testing.T, answer string) *ptyTerm {
	t.Helper()
	m, s, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	_ = pty.Setsize(m, &pty.Winsize{Cols: 80, Rows: 24})
	p := &ptyTerm{master: m, slave: s, answer: answer}
	t.Cleanup(func() { m.Close(); s.Close() })
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := m.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			if !p.answered && p.answer != "" && strings.Contains(p.out.String(), "\x1b[c") {
				p.answered = true
				_, _ = m.WriteString(p.answer)
			}
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return p
}

func (p *ptyTerm) written() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// stty returns `stty -g` of the pty.
func (p *ptyTerm) stty(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("stty", "-g")
	cmd.Stdin = p.slave
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("stty -g: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// start runs the helper in mode on p as its controlling terminal.
func (p *ptyTerm) start(t *testing.T, mode string) (*exec.Cmd, string) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TERM_HELPER="+mode, "TERM_REPORT="+report)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, report
}

// wait waits (bounded) for the helper and returns its exit status, or
// 128+signal when a signal ended it.
func wait(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the helper did not exit within 15s")
	}
	return -1
}

func waitFile(t *testing.T, path string) []byte {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return b
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s was not written within 10s", path)
	return nil
}

// da1 is the shortest probe answer.
const da1 = "\x1b[?62;22c"

// TestRestoredOnEveryExit: whatever way the program ends, the pty's
// termios (stty -g) is what it was, and the last bytes written leave the
// alternate screen with the modes off and the cursor shown.
func TestRestoredOnEveryExit(t *testing.T) {
	tests := []struct {
		name   string
		mode   string
		signal syscall.Signal
		code   int
	}{
		{name: "normal close", mode: "close", code: 0},
		{name: "error exit", mode: "error", code: 1},
		{name: "panic in main", mode: "panic", code: 2},
		{name: "panic in a goroutine", mode: "panic-goroutine", code: 2},
		{name: "SIGINT", mode: "signal", signal: syscall.SIGINT, code: 128 + 2},
		{name: "SIGTERM", mode: "signal", signal: syscall.SIGTERM, code: 128 + 15},
		{name: "SIGHUP", mode: "signal", signal: syscall.SIGHUP, code: 128 + 1},
		{name: "SIGQUIT", mode: "signal", signal: syscall.SIGQUIT, code: 128 + 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPty(t, da1)
			before := p.stty(t)
			cmd, report := p.start(t, tt.mode)
			if tt.signal != 0 {
				waitFile(t, report)
				_ = cmd.Process.Signal(tt.signal)
			}
			if code := wait(t, cmd); code != tt.code {
				t.Errorf("exit status %d, want %d; the program wrote %q", code, tt.code, p.written())
			}
			if after := p.stty(t); after != before {
				t.Errorf("stty -g after %q, before %q", after, before)
			}
			out := p.written()
			enter, leave := strings.LastIndex(out, "\x1b[?1049h"), strings.LastIndex(out, "\x1b[?1049l")
			if enter < 0 || leave < enter {
				t.Errorf("the alternate screen was not left: %q", out)
			}
			for _, off := range []string{"\x1b[?1006l", "\x1b[?1000l", "\x1b[?2004l", "\x1b[?25h", "\x1b[?7h", "\x1b[?1004l"} {
				if strings.LastIndex(out, off) < enter {
					t.Errorf("%q was not sent after entering: %q", off, out)
				}
			}
			if strings.Contains(tt.mode, "panic") {
				// The reader may still be copying the last bytes.
				for end := time.Now().Add(5 * time.Second); !strings.Contains(out, "panic: boom") && time.Now().Before(end); {
					time.Sleep(10 * time.Millisecond)
					out = p.written()
				}
				if !strings.Contains(out, "panic: boom") {
					t.Errorf("the panic was not printed: %q", out)
				}
			}
		})
	}
}

// TestSuspend: Suspend hands the terminal back (its termios restored while
// stopped), stops the process, and on SIGCONT takes the terminal again and
// asks for a redraw.
func TestSuspend(t *testing.T) {
	p := newPty(t, da1)
	before := p.stty(t)
	cmd, report := p.start(t, "suspend")
	state := func() byte {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
		if err != nil {
			return 0
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		return f[0][0]
	}
	deadline := time.Now().Add(10 * time.Second)
	for state() != 'T' {
		if time.Now().After(deadline) {
			t.Fatalf("the process did not stop; it wrote %q", p.written())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := p.stty(t); got != before {
		t.Errorf("while stopped, stty -g %q, want the original %q", got, before)
	}
	_ = cmd.Process.Signal(syscall.SIGCONT)
	if code := wait(t, cmd); code != 0 {
		t.Fatalf("exit %d: %q", code, p.written())
	}
	var got string
	if err := json.Unmarshal(waitFile(t, report), &got); err != nil || got != "<nil>" {
		t.Errorf("Suspend returned %q (%v)", got, err)
	}
	if n := strings.Count(p.written(), "\x1b[?1049h"); n != 2 {
		t.Errorf("the alternate screen was entered %d times, want 2 (again after resuming)", n)
	}
	if after := p.stty(t); after != before {
		t.Errorf("stty -g after %q, before %q", after, before)
	}
}

// TestProbe: the replies decide the capabilities, and Open returns as
// soon as DA1 arrives.
func TestProbe(t *testing.T) {
	p := newPty(t, "\x1b[?2026;2$y\x1b[?2027;0$y\x1b[?1004;1$y\x1b[?1u\x1bP>|kitty(0.40.1)\x1b\\\x1b]11;rgb:0000/0000/0000\x1b\\"+da1)
	cmd, report := p.start(t, "close")
	if code := wait(t, cmd); code != 0 {
		t.Fatalf("exit %d: %q", code, p.written())
	}
	var c term.Caps
	if err := json.Unmarshal(waitFile(t, report), &c); err != nil {
		t.Fatal(err)
	}
	if !c.Probed || !c.SyncOutput || c.GraphemeWidth || !c.Focus || !c.KittyKeyboard || c.Version != "kitty(0.40.1)" || !c.Hyperlinks ||
		c.Dark == nil || !*c.Dark {
		t.Errorf("caps %+v", c)
	}
	if out := p.written(); !strings.Contains(out, "\x1b[>1u") || !strings.Contains(out, "\x1b[<u") {
		t.Errorf("the kitty flags were not pushed and popped: %q", out)
	}
}

// TestProbeSilent: a terminal that answers nothing costs the probe
// timeout, and the capabilities are the environment's.
func TestProbeSilent(t *testing.T) {
	p := newPty(t, "")
	cmd, report := p.start(t, "close")
	if code := wait(t, cmd); code != 0 {
		t.Fatalf("exit %d: %q", code, p.written())
	}
	var c term.Caps
	if err := json.Unmarshal(waitFile(t, report), &c); err != nil {
		t.Fatal(err)
	}
	if c.Probed || c.SyncOutput || c.KittyKeyboard || c.Profile.String() != "256" {
		t.Errorf("caps %+v", c)
	}
	if out := p.written(); !strings.Contains(out, "\x1b[>4;2m") {
		t.Errorf("modifyOtherKeys was not enabled without the kitty protocol: %q", out)
	}
}

// TestTypeAheadKept: keys typed before the probe's answer reach Events.
func TestTypeAheadKept(t *testing.T) {
	p := newPty(t, "")
	p.mu.Lock()
	p.answer = "hi" + da1
	p.mu.Unlock()
	cmd, report := p.start(t, "keys")
	time.Sleep(200 * time.Millisecond)
	_, _ = p.master.WriteString("!\r")
	if code := wait(t, cmd); code != 0 {
		t.Fatalf("exit %d: %q", code, p.written())
	}
	var keys []string
	if err := json.Unmarshal(waitFile(t, report), &keys); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(keys, " "); got != "h i ! enter" {
		t.Errorf("keys %q, want h i ! enter", got)
	}
}

// BenchmarkOpen is the start-up cost of taking over a terminal that
// answers the probe at once (Close, not timed, discards input for a few
// milliseconds).
func BenchmarkOpen(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m, s, err := pty.Open()
		if err != nil {
			b.Fatal(err)
		}
		go func() {
			buf := make([]byte, 4096)
			seen := ""
			for {
				n, err := m.Read(buf)
				seen += string(buf[:n])
				if strings.Contains(seen, "\x1b[c") {
					_, _ = m.WriteString(da1)
					seen = ""
				}
				if err != nil {
					return
				}
			}
		}()
		b.StartTimer()
		tm, err := term.Open(term.Options{In: s, Out: s, Env: func(string) string { return "" }})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = tm.Close()
		m.Close()
		s.Close()
	}
}
