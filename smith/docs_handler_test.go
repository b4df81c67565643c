package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/rpcclient"
)

// TestExampleHandler: the Go event handler example, built with the
// standard toolchain, does what checkGuard asks.
func TestExampleHandler(t *testing.T) {
	checkGuard(t, "push-guard", examplePackage(t, "handler-go", func(src, out string) *exec.Cmd {
		return exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	}))
}

// TestExampleHandlerRust: the Rust port passes its own tests natively
// without a warning, is formatted, and does what checkGuard asks.
func TestExampleHandlerRust(t *testing.T) {
	t.Run("native", func(t *testing.T) {
		tests := filepath.Join(t.TempDir(), "guard-tests")
		for _, args := range [][]string{
			{rustc, "--edition", "2021", "--test", "-D", "warnings", "-o", tests, "src/lib.rs"},
			{tests},
			{"/usr/bin/rustfmt", "--edition", "2021", "--check", "src/lib.rs"},
		} {
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = filepath.Join("..", "docs", "examples", "handler-rust")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
			}
			if args[0] == tests && !strings.Contains(string(out), "test result: ok") {
				t.Fatalf("the example's tests:\n%s", out)
			}
		}
	})
	checkGuard(t, "push-guard-rust", examplePackage(t, "handler-rust", func(_, out string) *exec.Cmd {
		return exec.Command(rustc, "--edition", "2021", "--crate-type", "cdylib", "--crate-name", "push_guard_rust",
			"--target", "wasm32-wasi", "-C", "opt-level=s", "-C", "panic=abort", "-C", "strip=symbols", "-D", "warnings",
			"-o", out, "src/lib.rs")
	}))
}

// checkGuard runs the push guard package dir (plugin name): in smith
// eval nobody can be asked, so a push is refused with the guard's reason
// while other commands run and a write into .git/ is refused; over RPC
// with --confirmations the question reaches the client, and a yes lets
// the push run.
func checkGuard(t *testing.T, name, dir string) {
	e := newEnv(t)
	m := e.script("guard.json", `{"mock_script":1,"responses":[
 {"tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"echo git push > pushed.txt"}},
   {"id":"c2","name":"write","arguments":{"path":".git/config","content":"x"}},
   {"id":"c3","name":"bash","arguments":{"command":"echo hi > hi.txt"}}]},
 {"text":"done"}]}`)
	r := e.mustRun("", "--plugin", dir, "eval", "--model", m, "--no-session", "push it")
	for _, w := range []string{
		"denied by plugin " + name + ": " + name + ": git push needs the user's approval, and it could not be asked for (nobody can answer here)",
		"denied by plugin " + name + ": " + name + ": the files inside .git/ are git's own",
	} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("eval output lacks %q:\n%s", w, r.stdout)
		}
	}
	for _, w := range []string{"plugin " + name + " asks: Let the agent run `echo git push > pushed.txt`?",
		"warning: plugin " + name + ": " + name + " stopped a bash call"} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("eval's stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	for f, want := range map[string]bool{"pushed.txt": false, ".git/config": false, "hi.txt": true} {
		if _, err := os.Stat(filepath.Join(e.cwd, f)); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", f, err == nil, want)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := e.command("", "--plugin", dir, "rpc", "--model", m, "--no-session", "--confirmations")
	cmd.Stdin = nil
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = in.Close(); _ = cmd.Wait() }()
	c := rpcclient.New(out, in)
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: "push it"}); err != nil {
		t.Fatal(err)
	}
	for asked := false; !asked; {
		select {
		case ev := <-c.Events():
			if q, ok := ev.(protocol.ConfirmationRequest); ok {
				if q.Plugin != name || !strings.Contains(q.Prompt, "echo git push") {
					t.Fatalf("confirmation_request %+v", q)
				}
				if err := c.Confirm(ctx, q.ID, true); err != nil {
					t.Fatal(err)
				}
				asked = true
			}
		case <-ctx.Done():
			t.Fatal("no confirmation_request within a minute")
		}
	}
	if w, err := c.Wait(ctx, 0); err != nil || !w.Settled {
		t.Fatalf("wait: %+v, %v", w, err)
	}
	if _, err := os.Stat(filepath.Join(e.cwd, "pushed.txt")); err != nil {
		t.Fatalf("the approved push did not run: %v", err)
	}
}
