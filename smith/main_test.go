package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
	"github.com/smith-agent/smith/smith/internal/demoproject"
)

// smithBin is the real smith binary, built once by TestMain; cacheDir is
// the XDG cache directory every run shares, so the tools plugin is compiled
// once per test binary rather than once per test.
var smithBin, cacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "smith-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	smithBin = filepath.Join(dir, "smith")
	cacheDir = filepath.Join(dir, "cache")
	// Built as shipped (make build): pure Go, statically linked.
	build := exec.Command("go", "build", "-o", smithBin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build smith:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// env is one test's environment: its own data directory, temp directory
// and working directory.
type env struct {
	t    testing.TB
	home string // SMITH_HOME
	tmp  string // TMPDIR
	cwd  string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp"), cwd: filepath.Join(root, "project")}
	for _, d := range []string{e.tmp, e.cwd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// demo writes the demo project into the working directory.
func (e *env) demo() {
	e.t.Helper()
	if err := demoproject.Write(e.cwd); err != nil {
		e.t.Fatal(err)
	}
}

// script writes a mock script into the working directory and returns the
// --model value selecting it.
func (e *env) script(name, body string) string {
	e.t.Helper()
	if err := os.WriteFile(filepath.Join(e.cwd, name), []byte(body), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return "mock/" + name
}

func (e *env) command(stdin string, args ...string) *exec.Cmd {
	cmd := exec.Command(smithBin, args...)
	cmd.Dir = e.cwd
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.home, "SMITH_HOME=" + e.home, "TMPDIR=" + e.tmp, "XDG_CACHE_HOME=" + cacheDir}
	cmd.Stdin = strings.NewReader(stdin)
	return cmd
}

// result is a finished smith process.
type result struct {
	code           int
	stdout, stderr string
}

// run runs smith to completion.
func (e *env) run(stdin string, args ...string) result {
	e.t.Helper()
	cmd := e.command(stdin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// mustRun runs smith and requires exit status 0.
func (e *env) mustRun(stdin string, args ...string) result {
	e.t.Helper()
	r := e.run(stdin, args...)
	if r.code != 0 {
		e.t.Fatalf("smith %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// sessionInfo finds a session of the env's data directory by name or id.
func (e *env) sessionInfo(ref string) session.Info {
	e.t.Helper()
	d, err := session.OpenDir(filepath.Join(e.home, "sessions"))
	if err != nil {
		e.t.Fatal(err)
	}
	info, err := d.Find(ref)
	if err != nil {
		e.t.Fatal(err)
	}
	return info
}

// load reads a session file: its entry kinds in order and its messages.
func load(t *testing.T, path string) (kinds []string, msgs []model.Message) {
	t.Helper()
	s, _, err := sessionfmt.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Len() {
		kinds = append(kinds, s.Kind(i).String())
	}
	msgs, err = session.Messages(s)
	if err != nil {
		t.Fatal(err)
	}
	return kinds, msgs
}

// count returns how often k occurs in kinds.
func count(kinds []string, k string) int {
	n := 0
	for _, x := range kinds {
		if x == k {
			n++
		}
	}
	return n
}

// checkPaired requires every tool call on the branch to be answered by
// exactly one result, in call order, before the next assistant or user
// message.
func checkPaired(t *testing.T, msgs []model.Message) {
	t.Helper()
	var pending []string
	for i, m := range msgs {
		switch m := m.(type) {
		case model.AssistantMessage:
			if len(pending) > 0 {
				t.Fatalf("message %d: assistant message while calls %v are unanswered", i, pending)
			}
			for _, c := range m.ToolCalls() {
				pending = append(pending, c.ID)
			}
		case model.UserMessage:
			if len(pending) > 0 {
				t.Fatalf("message %d: user message while calls %v are unanswered", i, pending)
			}
		case model.ToolResultMessage:
			if len(pending) == 0 || pending[0] != m.CallID {
				t.Fatalf("message %d: result for %s, want the result of %v", i, m.CallID, pending)
			}
			pending = pending[1:]
		}
	}
	if len(pending) > 0 {
		t.Fatalf("calls %v have no result", pending)
	}
}
