//go:build unix

package hostproc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
)

func run(t *testing.T, ctx context.Context, cmd string, o Options) Result {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	r, err := Run(ctx, cmd, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExitStatusAndOutput(t *testing.T) {
	tests := []struct {
		name   string
		cmd    string
		out    string
		code   int
		signal string
	}{
		{"success", "echo hi; echo err >&2", "hi\nerr\n", 0, ""},
		{"failure", "echo no; exit 3", "no\n", 3, ""},
		{"killed by signal", "kill -9 $$", "", -1, "killed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, context.Background(), tt.cmd, Options{})
			if string(r.Output) != tt.out || r.ExitCode != tt.code || r.Signal != tt.signal || r.Mutation != model.MutationApplied {
				t.Fatalf("result = %+v", r)
			}
		})
	}
}

func TestExplicitWorkingDirectory(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the process directory must not matter
	r := run(t, context.Background(), "pwd", Options{Dir: dir})
	if strings.TrimSpace(string(r.Output)) != dir {
		t.Fatalf("pwd = %q; want %q", r.Output, dir)
	}
	for _, d := range []string{"", "rel", filepath.Join(dir, "missing")} {
		if _, err := Run(context.Background(), "true", Options{Dir: d}); err == nil || !strings.Contains(err.Error(), "hostproc: working directory") {
			t.Fatalf("dir %q: err = %v", d, err)
		}
	}
}

func TestOutputIsBoundedToTheTail(t *testing.T) {
	r := run(t, context.Background(), "for i in $(seq 1 5000); do echo line$i; done", Options{MaxOutput: 100})
	if !r.Truncated || len(r.Output) != 100 || !bytes.HasSuffix(r.Output, []byte("line5000\n")) {
		t.Fatalf("result = %d bytes, truncated %v, ends %q", len(r.Output), r.Truncated, r.Output[len(r.Output)-10:])
	}
	want := int64(0)
	for i := 1; i <= 5000; i++ {
		want += int64(len("line") + len(strconv.Itoa(i)) + 1)
	}
	if r.TotalBytes != want {
		t.Fatalf("total = %d; want %d", r.TotalBytes, want)
	}
	if r.Notice() != "[output truncated: showing the last 100 of "+strconv.FormatInt(want, 10)+" bytes]" {
		t.Fatalf("notice = %q", r.Notice())
	}
}

// TestNoOutputLostAtExit: a burst written just before exit and output from
// a child that writes shortly after the shell exited are both collected.
func TestNoOutputLostAtExit(t *testing.T) {
	r := run(t, context.Background(), "head -c 300000 /dev/zero | tr '\\0' x; (sleep 0.1; echo late) &", Options{MaxOutput: 1 << 20, DrainDelay: 3 * time.Second})
	if r.TotalBytes != 300005 || !bytes.HasSuffix(r.Output, []byte("xlate\n")) || r.Lingering {
		t.Fatalf("total = %d, lingering %v, tail %q", r.TotalBytes, r.Lingering, r.Output[len(r.Output)-8:])
	}
}

// alive reports whether pid runs; a zombie (killed, not yet reaped by its
// new parent) counts as dead.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no procfs: trust kill
	}
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
		return false
	}
	return true
}

// waitDead polls until pid is gone (it is reaped by init once killed).
func waitDead(t *testing.T, pid int) {
	t.Helper()
	for range 500 {
		if !alive(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d is still alive", pid)
}

// TestTimeoutKillsTheProcessGroup: on timeout the shell and the processes
// it started are terminated, and the result says the effect is unknown.
func TestTimeoutKillsTheProcessGroup(t *testing.T) {
	dir := t.TempDir()
	r := run(t, context.Background(), "sleep 30 & echo $! > child.pid; trap '' TERM; sleep 30", Options{Dir: dir, Timeout: 200 * time.Millisecond, KillGrace: 100 * time.Millisecond})
	if !r.TimedOut || r.Cancelled || r.Mutation != model.MutationUnknown || r.Signal != "killed" {
		t.Fatalf("result = %+v", r)
	}
	b, err := os.ReadFile(filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	waitDead(t, pid)
}

// TestCancelTerminates: cancelling the context stops the command with
// SIGTERM first.
func TestCancelTerminates(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	r := run(t, ctx, "echo started; sleep 30", Options{})
	if !r.Cancelled || r.TimedOut || r.Mutation != model.MutationUnknown || r.Signal != "terminated" || string(r.Output) != "started\n" {
		t.Fatalf("result = %+v", r)
	}
	if _, err := Run(ctx, "true", Options{Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "not started") {
		t.Fatalf("cancelled before start: %v", err)
	}
}

// TestLingeringChildrenAreKilled: a background child that keeps the
// output open past the drain delay is reported and killed.
func TestLingeringChildrenAreKilled(t *testing.T) {
	dir := t.TempDir()
	r := run(t, context.Background(), "sleep 30 & echo $! > child.pid; echo done", Options{Dir: dir, DrainDelay: 100 * time.Millisecond})
	if !r.Lingering || r.ExitCode != 0 || string(r.Output) != "done\n" {
		t.Fatalf("result = %+v", r)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "child.pid"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	waitDead(t, pid)
}
