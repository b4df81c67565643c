package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestEvalPromptTerminal: with no PROMPT and a terminal on standard input,
// eval does not wait for input; it exits 2 saying how to give a prompt.
func TestEvalPromptTerminal(t *testing.T) {
	e := newEnv(t)
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	cmd := e.command("", "eval", "--model", "mock")
	cmd.Stdin = tty
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
		t.Fatalf("run = %v, want exit 2; stderr: %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "no PROMPT given") || !strings.Contains(stderr.String(), "pipe it to standard input") {
		t.Fatalf("stderr: %s", stderr.String())
	}
}
