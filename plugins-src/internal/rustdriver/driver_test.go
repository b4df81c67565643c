package rustdriver

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

const echo = "testdata/echo.rs"

func TestMain(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// recorder is a testing.TB that records the first failure and ends the
// goroutine, as t.Fatal would, so a test can check a failure's message.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) { r.msg = fmt.Sprint(args...); runtime.Goexit() }

func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure runs f with a recorder and returns the failure it recorded; the
// test fails if there was none.
func failure(t *testing.T, f func(tb testing.TB)) string {
	t.Helper()
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	if r.msg == "" {
		t.Fatal("no failure was reported")
	}
	return r.msg
}

func TestAsk(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB, beyond a pipe's buffer
	for _, tc := range []struct {
		name    string
		op      byte
		payload []byte
		want    []byte
	}{
		{"empty payload", 'e', nil, []byte("e")},
		{"text", 'e', []byte("hello"), []byte("ehello")},
		{"every byte value", 'e', func() []byte {
			b := make([]byte, 256)
			for i := range b {
				b[i] = byte(i)
			}
			return b
		}(), func() []byte {
			b := []byte{'e'}
			for i := range 256 {
				b = append(b, byte(i))
			}
			return b
		}()},
		{"another op", 'r', []byte("abc"), []byte("cba")},
		{"a megabyte", 'e', big, append([]byte("e"), big...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Start(t, echo).Ask(t, tc.op, tc.payload); !bytes.Equal(got, tc.want) {
				t.Fatalf("Ask(%q, %.40q) = %.40q (%d bytes), want %.40q (%d bytes)", tc.op, tc.payload, got, len(got), tc.want, len(tc.want))
			}
		})
	}
}

func TestStartOnce(t *testing.T) {
	a, b := Start(t, echo), Start(t, echo)
	if a != b {
		t.Fatal("a second Start with the same root and args built another driver")
	}
	if c := Start(t, echo, "-C", "debug-assertions=on"); c == a {
		t.Fatal("Start with other args returned the first driver")
	}
}

func TestAskConcurrent(t *testing.T) {
	d := Start(t, echo)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				in := []byte(strings.Repeat(fmt.Sprint(i, "-", j, ";"), i*j))
				if got := d.Ask(t, 'e', in); !bytes.Equal(got, append([]byte("e"), in...)) {
					errs <- fmt.Sprintf("goroutine %d request %d got %.40q", i, j, got)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestDriverFailures(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   byte
		want []string
	}{
		{"panic", 'p', []string{"did not answer op 'p'", "echo: asked to panic: boom", "exit status 101"}},
		{"exit", 'x', []string{"did not answer op 'x'", "reading the reply's length", "exit status 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Own args, so the broken driver is not the one other tests use.
			d := Start(t, echo, "--cfg", "failure_"+tc.name)
			msg := failure(t, func(tb testing.TB) { d.Ask(tb, tc.op, []byte("boom")) })
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the failure %q does not say %q", msg, w)
				}
			}
			msg = failure(t, func(tb testing.TB) { d.Ask(tb, 'e', nil) })
			if !strings.Contains(msg, "broke on an earlier request") {
				t.Errorf("a request after the failure was not refused: %q", msg)
			}
		})
	}
}

func TestBuildFailures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rustc string
		args  []string
		want  []string
	}{
		{"rustc missing", "/nonexistent/rustc", []string{"--cfg", "missing"}, []string{"/nonexistent/rustc", "run scripts/deps.sh"}},
		{"wrong rustc version", "/bin/echo", []string{"--cfg", "wrong"}, []string{"rustc 1.63.0", "run scripts/deps.sh"}},
		{"compile error", "", []string{"--cfg", "broken"}, []string{"building testdata/echo.rs failed", "mismatched types"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.rustc != "" {
				t.Setenv("SMITH_RUSTC", tc.rustc)
			}
			for range 2 { // the failure is remembered, not retried
				msg := failure(t, func(tb testing.TB) { Start(tb, echo, tc.args...) })
				for _, w := range tc.want {
					if !strings.Contains(msg, w) {
						t.Errorf("the failure %q does not say %q", msg, w)
					}
				}
			}
		})
	}
}

func TestRunTests(t *testing.T) {
	RunTests(t, echo)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a failing test", []string{"--cfg", "fail"}, "fails_on_request"},
		{"no tests", []string{"--cfg", "none"}, "holds no tests"},
		{"compile error", []string{"--cfg", "broken"}, "mismatched types"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if msg := failure(t, func(tb testing.TB) { RunTests(tb, echo, tc.args...) }); !strings.Contains(msg, tc.want) {
				t.Fatalf("the failure %q does not say %q", msg, tc.want)
			}
		})
	}
}

func TestStop(t *testing.T) {
	d := Start(t, echo, "--cfg", "stop")
	d.Ask(t, 'e', nil)
	Stop()
	select {
	case <-d.exited:
	default:
		t.Fatal("the driver still runs after Stop")
	}
	if !d.cmd.ProcessState.Success() {
		t.Fatalf("the driver ended with %v, not by its stdin's end", d.cmd.ProcessState)
	}
	if msg := failure(t, func(tb testing.TB) { d.Ask(tb, 'e', nil) }); !strings.Contains(msg, "was stopped") {
		t.Fatalf("Ask after Stop: %q", msg)
	}
	if again := Start(t, echo, "--cfg", "stop"); again == d || !bytes.Equal(again.Ask(t, 'e', nil), []byte("e")) {
		t.Fatal("Start after Stop did not build a new driver")
	}
}

func TestSweep(t *testing.T) {
	tmp := t.TempDir()
	now := time.Now()
	cases := []struct {
		name string
		age  time.Duration
		kept bool
	}{
		{"rustdriver-old", 2 * staleAfter, false},
		{"rustdriver-fresh", time.Minute, true},
		{"other-old", 2 * staleAfter, true},
	}
	for _, tc := range cases {
		dir := filepath.Join(tmp, tc.name)
		if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(dir, now.Add(-tc.age), now.Add(-tc.age)); err != nil {
			t.Fatal(err)
		}
	}
	sweep(tmp, now.Add(-staleAfter))
	for _, tc := range cases {
		if _, err := os.Stat(filepath.Join(tmp, tc.name)); (err == nil) != tc.kept {
			t.Errorf("%s: kept %v, want %v", tc.name, err == nil, tc.kept)
		}
	}
}

// TestBuildWasm builds a cdylib for the plugin target and finds its export
// in the module.
func TestBuildWasm(t *testing.T) {
	b := BuildWasm(t, filepath.Join("testdata", "wasm_add.rs"))
	if !bytes.Contains(b, []byte("add")) {
		t.Errorf("the module (%d bytes) does not name its export add", len(b))
	}
	if bytes.Contains(b, []byte("random_get")) {
		t.Errorf("the module imports random_get")
	}
}
