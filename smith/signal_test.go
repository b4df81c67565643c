package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
)

// sleepScript makes the model call bash with a command that records its pid
// and that it ran, then sleeps; a second response answers the next request.
const sleepScript = `{"mock_script":1,"responses":[
 {"tool_calls":[{"id":"call_sleep","name":"bash","arguments":{"command":"echo ran >> ran.txt; echo $$ > pid.tmp; mv pid.tmp pid.txt; exec sleep 30"}}]},
 {"text":"done"}]}`

// midTool is a smith eval stopped in the middle of its bash tool call.
type midTool struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	pid    int // the tool's process
}

// startMidTool starts smith eval with args and returns once the bash tool's
// command is running (so its effect intent is durable).
func (e *env) startMidTool(args ...string) *midTool {
	e.t.Helper()
	m := e.script("sleep.json", sleepScript)
	cmd := e.command("", append([]string{"eval", "--model", m, "--output", "json"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	go func() { // drain the events so the run never blocks on output
		sc := bufio.NewScanner(out)
		for sc.Scan() {
		}
	}()
	mt := &midTool{cmd: cmd, stderr: &stderr}
	e.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if mt.pid > 0 {
			_ = syscall.Kill(mt.pid, syscall.SIGKILL)
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(e.cwd, "pid.txt"))
		if err == nil {
			if mt.pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
				e.t.Fatalf("pid.txt: %q", b)
			}
			return mt
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the bash tool never started; stderr: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wait waits for smith to exit and returns its exit code (-1 if killed).
func (m *midTool) wait(t *testing.T) int {
	t.Helper()
	err := m.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// TestSIGINTMidTool: SIGINT while the bash tool runs aborts cleanly: exit
// 130, the tool's process is killed, and the session is consistent (the
// call has its result, every effect intent its completion).
func TestSIGINTMidTool(t *testing.T) {
	e := newEnv(t)
	m := e.startMidTool("--session", "int", "sleep please")
	if err := m.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := m.wait(t); code != exitAbort {
		t.Fatalf("exit %d, want 130; stderr: %s", code, m.stderr)
	}
	if !strings.Contains(m.stderr.String(), "aborted; every tool call has its result; the session int (") {
		t.Fatalf("stderr: %s", m.stderr)
	}
	if err := syscall.Kill(m.pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the tool's process %d still exists after the abort (kill 0: %v)", m.pid, err)
	}
	kinds, msgs := load(t, e.sessionInfo("int").Path)
	checkPaired(t, msgs)
	// The bash call, the three reads of instruction files and the
	// turn's two file snapshots (the end one taken after the abort).
	if i, c := count(kinds, "effect_intent"), count(kinds, "effect_completion"); i != 6 || c != 6 {
		t.Fatalf("effects: %d intents, %d completions; want 6 and 6 (%v)", i, c, kinds)
	}
	res, ok := msgs[len(msgs)-1].(model.ToolResultMessage)
	if !ok || res.CallID != "call_sleep" || res.Mutation != model.MutationUnknown {
		t.Fatalf("last message = %#v, want the interrupted call's result with mutation unknown", msgs[len(msgs)-1])
	}
	// The aborted session can be continued.
	e.script("after.json", `{"mock_script":1,"responses":[{"text":"ok"}]}`)
	e.mustRun("", "eval", "--model", "mock/after.json", "--session", "int", "go on")
}

// TestSIGHUPMidTool: a closed terminal's SIGHUP aborts like SIGINT: exit
// 130 and the tool's process is killed, not left running.
func TestSIGHUPMidTool(t *testing.T) {
	e := newEnv(t)
	m := e.startMidTool("--session", "hup", "sleep please")
	if err := m.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if code := m.wait(t); code != exitAbort {
		t.Fatalf("exit %d, want 130; stderr: %s", code, m.stderr)
	}
	if err := syscall.Kill(m.pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the tool's process %d still exists after SIGHUP (kill 0: %v)", m.pid, err)
	}
}

// TestSIGKILLMidToolRecoversUnknown: a smith eval killed while its tool
// runs leaves a durable intent without completion. Resuming the session
// completes the effect as unknown, never retries it, and pairs the call
// with an unknown result before the new prompt.
func TestSIGKILLMidToolRecoversUnknown(t *testing.T) {
	e := newEnv(t)
	m := e.startMidTool("--session", "kill", "sleep please")
	if err := m.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := m.wait(t); code != -1 {
		t.Fatalf("exit %d, want killed", code)
	}
	if runtime.GOOS == "linux" {
		// The tool's shell has SIGKILL as its parent-death signal.
		for deadline := time.Now().Add(10 * time.Second); syscall.Kill(m.pid, 0) == nil && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if err := syscall.Kill(m.pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("the tool's process %d outlived the killed smith (kill 0: %v)", m.pid, err)
		}
	}
	path := e.sessionInfo("kill").Path
	if kinds, _ := load(t, path); strings.Join(kinds, " ") != "replay_metadata model_change effect_intent effect_completion effect_intent effect_completion effect_intent effect_completion effect_intent message message effect_completion vcs_operation effect_intent" {
		t.Fatalf("after the kill: %v", kinds)
	}

	e.script("after.json", `{"mock_script":1,"responses":[{"text":"I cannot tell whether it finished."}]}`)
	r := e.mustRun("", "eval", "--model", "mock/after.json", "--resume", "kill", "did it work?")
	if !strings.Contains(r.stderr, "was interrupted; it is recorded as unknown (it may or may not have happened) and was not retried") {
		t.Fatalf("stderr: %s", r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(e.cwd, "ran.txt")); string(b) != "ran\n" {
		t.Fatalf("ran.txt = %q: the effect was retried", b)
	}
	kinds, msgs := load(t, path)
	if got := strings.Join(kinds, " "); got != "replay_metadata model_change effect_intent effect_completion effect_intent effect_completion effect_intent effect_completion effect_intent message message effect_completion vcs_operation effect_intent effect_completion model_change effect_intent effect_completion effect_intent effect_completion effect_intent effect_completion effect_intent message message message effect_completion vcs_operation" {
		t.Fatalf("after resume: %s", got)
	}
	checkPaired(t, msgs)
	res, ok := msgs[2].(model.ToolResultMessage)
	if !ok || res.CallID != "call_sleep" || res.Mutation != model.MutationUnknown {
		t.Fatalf("message after the interrupted call = %#v", msgs[2])
	}
}

// TestNoSession: --no-session records into a temporary store that a clean
// run removes, and that an aborted or killed run leaves behind (the abort
// says where).
func TestNoSession(t *testing.T) {
	stores := func(e *env) []string {
		got, _ := filepath.Glob(filepath.Join(e.tmp, "smith-session-*", "*.session"))
		return got
	}
	t.Run("clean", func(t *testing.T) {
		e := newEnv(t)
		e.demo()
		r := e.mustRun("", "eval", "--model", "mock", "--no-session", "fix the bug")
		if !strings.Contains(r.stdout, "PASS") {
			t.Fatalf("stdout: %s", r.stdout)
		}
		if left, _ := filepath.Glob(filepath.Join(e.tmp, "*")); len(left) != 0 {
			t.Fatalf("left behind: %v", left)
		}
		if _, err := os.Stat(filepath.Join(e.home, "sessions")); !os.IsNotExist(err) {
			t.Fatalf("--no-session touched the data directory: %v", err)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		e := newEnv(t)
		m := e.startMidTool("--no-session", "sleep please")
		_ = m.cmd.Process.Signal(os.Interrupt)
		if code := m.wait(t); code != exitAbort {
			t.Fatalf("exit %d; stderr: %s", code, m.stderr)
		}
		kept := stores(e)
		if len(kept) != 1 || !strings.Contains(m.stderr.String(), "kept the temporary session store "+filepath.Dir(kept[0])) {
			t.Fatalf("kept %v; stderr: %s", kept, m.stderr)
		}
		_, msgs := load(t, kept[0])
		checkPaired(t, msgs)
	})
	t.Run("killed", func(t *testing.T) {
		e := newEnv(t)
		m := e.startMidTool("--no-session", "sleep please")
		_ = m.cmd.Process.Signal(syscall.SIGKILL)
		m.wait(t)
		if kept := stores(e); len(kept) != 1 {
			t.Fatalf("after a kill the temporary store is gone: %v", kept)
		}
	})
}
