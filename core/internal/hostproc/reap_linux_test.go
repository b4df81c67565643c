//go:build linux

package hostproc

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitPid waits until the escaping process has written its pid to p, then
// prints it.
const waitPid = `while [ ! -s p ]; do sleep 0.01; done; cat p`

// TestDescendantsDieWithTheCommand: processes that left the command's
// process group — setsid, a double fork, a setsid that forks again — die
// when the command ends, normally or by its timeout, and none is left as a
// zombie.
func TestDescendantsDieWithTheCommand(t *testing.T) {
	tests := []struct {
		name    string
		cmd     string
		timeout time.Duration
	}{
		{name: "setsid", cmd: `setsid sh -c 'echo $$ > p.tmp; mv p.tmp p; exec sleep 300' & ` + waitPid},
		{name: "double fork", cmd: `(setsid sh -c 'echo $$ > p.tmp; mv p.tmp p; exec sleep 300' &) ; ` + waitPid},
		{name: "setsid grandchild", cmd: `setsid sh -c 'sleep 300 & echo $! > p.tmp; mv p.tmp p; wait' & ` + waitPid},
		{name: "nohup in the group", cmd: `nohup sh -c 'echo $$ > p.tmp; mv p.tmp p; exec sleep 300' >/dev/null 2>&1 & ` + waitPid},
		{name: "timed out", cmd: `setsid sh -c 'echo $$ > p.tmp; mv p.tmp p; exec sleep 300' & ` + waitPid + `; sleep 300`, timeout: 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, context.Background(), tt.cmd, Options{Timeout: tt.timeout, KillGrace: 100 * time.Millisecond})
			var pids []int
			for _, f := range strings.Fields(string(r.Output)) {
				if pid, err := strconv.Atoi(f); err == nil {
					pids = append(pids, pid)
				}
			}
			if len(pids) == 0 {
				t.Fatalf("no pid in the output %q", r.Output)
			}
			for _, pid := range pids {
				if alive(pid) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("process %d outlived the command", pid)
				}
				if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
					t.Errorf("process %d is left as a zombie", pid)
				}
			}
		})
	}
}

// TestHelperRunForever is the child process of TestShellDiesWithSmith: it
// runs $HOSTPROC_COMMAND, a command that never ends and writes the pid to
// watch to $HOSTPROC_PIDFILE.
func TestHelperRunForever(t *testing.T) {
	if os.Getenv("HOSTPROC_HELPER") == "" {
		return // not a child
	}
	if err := os.WriteFile(os.Getenv("HOSTPROC_PIDFILE")+".guard", []byte(runPrefix()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _ = Run(context.Background(), os.Getenv("HOSTPROC_COMMAND"), Options{Dir: os.TempDir(), Timeout: time.Hour})
}

// guardRunning reports whether a guard process for prefix runs.
func guardRunning(prefix string) bool {
	files, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte("smith-guard\x00"+prefix)) {
			return true
		}
	}
	return false
}

// TestShellDiesWithSmith: when the process running a command is killed
// outright (SIGKILL, no chance to clean up), the command dies too: its
// shell by its parent-death signal, what the shell started (in its group
// or out of it) by the guard process.
func TestShellDiesWithSmith(t *testing.T) {
	const publish = `> "$HOSTPROC_PIDFILE.tmp"; mv "$HOSTPROC_PIDFILE.tmp" "$HOSTPROC_PIDFILE"`
	tests := []struct {
		name    string
		command string
	}{
		{name: "shell", command: `echo $$ ` + publish + `; exec sleep 300`},
		{name: "child in the group", command: `sleep 300 & echo $! ` + publish + `; wait`},
		{name: "setsid grandchild", command: `setsid sh -c 'sleep 300 & echo $! ` + publish + `; wait' & wait`},
		{name: "nohup child", command: `nohup sleep 300 >/dev/null 2>&1 & echo $! ` + publish + `; sleep 300`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRunForever$")
			cmd.Env = append(os.Environ(), "HOSTPROC_HELPER=1", "HOSTPROC_PIDFILE="+pidfile, "HOSTPROC_COMMAND="+tt.command)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var pid int
			for deadline := time.Now().Add(10 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if b, err := os.ReadFile(pidfile); err == nil {
					pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
				}
			}
			if pid == 0 {
				_ = cmd.Process.Kill()
				t.Fatal("the helper's command did not start")
			}
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			deadline := time.Now().Add(10 * time.Second)
			for alive(pid) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if alive(pid) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("process %d of the command outlived the killed process", pid)
			}
			prefix, err := os.ReadFile(pidfile + ".guard")
			if err != nil || len(prefix) == 0 {
				t.Fatalf("the helper wrote no guard prefix: %v", err)
			}
			for guardRunning(string(prefix)) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if guardRunning(string(prefix)) {
				t.Fatalf("the guard %s outlived its work", prefix)
			}
		})
	}
}
