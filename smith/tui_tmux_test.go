package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// tmuxPane is smith running in a real terminal: a tmux pane on a private
// server, typed into with send-keys and read with capture-pane.
type tmuxPane struct {
	t      *testing.T
	socket string
	target string
	dir    string
}

// startTmux runs script (a shell command line) in a w×h tmux pane whose
// environment is e's.
func startTmux(t *testing.T, e *env, w, h int, script string) *tmuxPane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed; scripts/deps.sh installs it")
	}
	p := &tmuxPane{t: t, socket: fmt.Sprintf("smith-test-%d-%d", os.Getpid(), time.Now().UnixNano()), target: "smith", dir: t.TempDir()}
	run := filepath.Join(p.dir, "run.sh")
	envLines := fmt.Sprintf("export PATH=%q HOME=%q SMITH_HOME=%q TMPDIR=%q XDG_CACHE_HOME=%q TERM=xterm-256color\ncd %q\n",
		os.Getenv("PATH"), e.home, e.home, e.tmp, cacheDir, e.cwd)
	body := "#!/bin/sh\n" + envLines + script + "\necho SMITH-EXITED-$?\nsleep 600\n"
	if err := os.WriteFile(run, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	p.tmux("-f", "/dev/null", "new-session", "-d", "-s", p.target, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), run)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
	return p
}

func (p *tmuxPane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", p.socket}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends tmux key names ("Enter", "Escape", "C-c", "PPage") or text
// with -l.
func (p *tmuxPane) keys(k ...string) { p.tmux(append([]string{"send-keys", "-t", p.target}, k...)...) }

func (p *tmuxPane) text(s string) { p.tmux("send-keys", "-t", p.target, "-l", s) }

func (p *tmuxPane) screen() string { return p.tmux("capture-pane", "-p", "-t", p.target) }

// waitFor waits up to 30 s for every want on the screen and returns it.
func (p *tmuxPane) waitFor(want ...string) string {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := p.screen()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(s, w)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the terminal did not show %q within 30s; it shows:\n%s", want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestInteractiveInTmux drives smith in a real terminal: a prompt, the
// streamed answer and tool activity, scrolling while a tool streams
// output, a steer queued mid-turn, a resize to 20×5 and back, esc to
// abort, ctrl+c twice to quit; the terminal state is what it was.
func TestInteractiveInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	e := newEnv(t)
	e.demo()
	// A slow bash call streams output while the test scrolls and steers;
	// the second response hangs until aborted.
	model := e.script("slow.json", `{"mock_script": 1, "responses": [
		{"text": "Running the slow check.", "tool_calls": [{"id": "c1", "name": "bash", "arguments": {"command": "for i in $(seq 1 40); do echo tick $i; sleep 0.2; done"}}]},
		{"text": "Heard you: steering now, and waiting", "hang_after": 3}
	]}`)
	p := startTmux(t, e, 100, 14, fmt.Sprintf("stty -g > %s/before\n%q --model %s\necho EXIT=$? > %s/exit\nstty -g > %s/after",
		e.tmp, smithBin, model, e.tmp, e.tmp))
	p.waitFor("Ask Smith", "/ for commands")
	p.text("check it slowly")
	p.keys("Enter")
	p.waitFor("bash", "tick 2", "earlier line")
	// Scroll up while the tool streams: the top row must not move.
	p.keys("PPage")
	before := p.waitFor("more below")
	time.Sleep(300 * time.Millisecond)
	after := p.screen()
	if b, a := firstLine(before), firstLine(after); b != a {
		t.Errorf("the scrolled view moved while output streamed: %q became %q", b, a)
	}
	p.keys("C-End")
	// Queue a steer while the run works.
	p.text("go left")
	p.keys("Enter")
	p.waitFor("Heard you")
	// Resize to 20×5 and back: a valid layout at each size.
	p.tmux("resize-window", "-t", p.target, "-x", "20", "-y", "5")
	small := p.waitFor("›")
	for i, row := range strings.Split(strings.TrimRight(small, "\n"), "\n") {
		if n := len([]rune(row)); n > 20 {
			t.Errorf("at 20x5 row %d is %d wide: %q", i, n, row)
		}
	}
	p.tmux("resize-window", "-t", p.target, "-x", "100", "-y", "14")
	p.waitFor("Heard you", "esc to abort")
	p.keys("Escape")
	p.waitFor("aborted")
	p.keys("C-c")
	p.keys("C-c")
	p.waitFor("SMITH-EXITED-0")
	b, _ := os.ReadFile(filepath.Join(e.tmp, "before"))
	a, _ := os.ReadFile(filepath.Join(e.tmp, "after"))
	if len(b) == 0 || string(a) != string(b) {
		t.Errorf("stty -g before %q, after %q: the terminal state was not restored", b, a)
	}
	if x, _ := os.ReadFile(filepath.Join(e.tmp, "exit")); strings.TrimSpace(string(x)) != "EXIT=0" {
		t.Errorf("smith exit: %q", x)
	}
	final := p.screen()
	if !strings.Contains(final, "smith --resume check-it-slowly") {
		t.Errorf("after quitting the screen should say how to resume; it shows:\n%s", final)
	}
	// The alternate screen is gone: no transcript left on the main screen.
	if strings.Contains(final, "tick 1") {
		t.Errorf("the transcript was left on the main screen:\n%s", final)
	}
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// TestInteractiveWritesTheEvalSession: a turn in the interactive mode
// records exactly the session a smith eval of the same turn records
// (ids, times and the project's directory aside).
func TestInteractiveWritesTheEvalSession(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a real terminal")
	}
	evalEnv := newEnv(t)
	evalEnv.demo()
	evalEnv.mustRun("", "eval", "--model", "mock", "fix the bug")
	want := normalizedDump(t, evalEnv, "fix-the-bug")

	e := newEnv(t)
	e.demo()
	p := startTmux(t, e, 100, 30, fmt.Sprintf("%q --model mock 'fix the bug'", smithBin))
	p.waitFor("test.sh passes", "/ for commands")
	p.keys("C-c")
	p.keys("C-c")
	p.waitFor("SMITH-EXITED-0")
	got := normalizedDump(t, e, "fix-the-bug")
	if got != want {
		t.Errorf("the interactive session differs from eval's:\n--- eval\n%s\n--- interactive\n%s", want, got)
	}
}

// normalizedDump is the session's entries as kind and content, one per
// line, with the project directory written as CWD.
var (
	ulid       = regexp.MustCompile(`\b[0-9A-HJKMNP-TV-Z]{26}\b`)
	snapshotID = regexp.MustCompile(`\b[0-9a-f]{40}\b`)
)

func normalizedDump(t *testing.T, e *env, name string) string {
	t.Helper()
	r := e.mustRun("", "session", "dump", name)
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var f struct {
			Frame   string          `json:"frame"`
			Kind    string          `json:"kind"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("dump line %q: %v", line, err)
		}
		if f.Frame != "entry" {
			continue
		}
		content := string(f.Content)
		// Effect outputs are base64: compare them decoded.
		var obj map[string]any
		if json.Unmarshal(f.Content, &obj) == nil {
			if o, ok := obj["output"].(string); ok {
				if b, err := base64.StdEncoding.DecodeString(o); err == nil {
					obj["output"] = string(b)
					nb, _ := json.Marshal(obj)
					content = string(nb)
				}
			}
		}
		content = strings.ReplaceAll(strings.ReplaceAll(content, e.cwd, "CWD"), e.home, "HOME")
		// Entry ids (ULIDs) and snapshot ids (commits, which carry a
		// time) differ between two runs.
		content = snapshotID.ReplaceAllString(ulid.ReplaceAllString(content, "ULID"), "SNAPSHOT")
		out = append(out, f.Kind+" "+content)
	}
	return strings.Join(out, "\n")
}
