package hostproc

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/internal/sandbox"
	"github.com/smith-agent/smith/core/model"
)

// Options configures one command. Dir is required; the zero value of every
// other field means its default.
type Options struct {
	// Dir is the absolute working directory (from the invocation).
	Dir string
	// Env is the environment; nil means the process's environment.
	Env []string
	// Timeout bounds the run; default 2 minutes.
	Timeout time.Duration
	// MaxOutput bounds the kept output (the last bytes); default 64 KiB.
	MaxOutput int
	// KillGrace is the time between SIGTERM and SIGKILL; default 2s.
	KillGrace time.Duration
	// DrainDelay is how long output is still collected after the shell
	// exits, for children that hold the pipe; default 500ms.
	DrainDelay time.Duration
	// Output, when non-nil, receives a copy of the combined output as it
	// arrives, in order, from the goroutine reading the pipe; while it
	// blocks, the command's writes block. nil: the output is only kept.
	Output func([]byte)
	// Sandbox confines the command (what it may write, whether it may use
	// the network). The zero Policy is Off: the command runs as it always
	// did. A policy the platform cannot enforce (sandbox.Probe reports it
	// unavailable) also runs the command unsandboxed, and Result.Sandbox
	// says so; one that cannot be applied stops the command from starting.
	Sandbox sandbox.Policy
}

// Result is how a command ended.
type Result struct {
	// Output is the combined stdout and stderr: all of it, or its last
	// MaxOutput bytes when Truncated.
	Output []byte
	// TotalBytes counts all output bytes, kept or not.
	TotalBytes int64
	// Truncated reports that the start of the output was dropped.
	Truncated bool
	// ExitCode is the shell's exit status, -1 when a signal ended it.
	ExitCode int
	// Signal names the signal that ended the shell, if any.
	Signal string
	// TimedOut and Cancelled say why Smith stopped the command.
	TimedOut, Cancelled bool
	// Lingering reports that processes started by the command still held
	// its output open DrainDelay after the shell exited; they were killed
	// and anything they wrote later was not collected.
	Lingering bool
	// Mutation is applied when the command ran to its own end, unknown when
	// it was stopped (it may have done part of its work).
	Mutation model.Mutation
	// Sandbox is Options.Sandbox.Describe(), what was in force, or "" when
	// Options.Sandbox.Mode was "" (no sandbox configured).
	Sandbox string
	// sandboxHint is the note for a command the sandbox may have stopped,
	// "" when no sandbox was in force.
	sandboxHint string
}

// Notice returns the notes to show with the output, one per line, or "":
// the truncation notice, and when a sandbox was in force and the output
// holds a permission error (a command that goes on after a denied write
// still exits 0), what the sandbox denies and how to allow it.
func (r Result) Notice() string {
	var notes []string
	if r.Truncated {
		notes = append(notes, fmt.Sprintf("[output truncated: showing the last %d of %d bytes]", len(r.Output), r.TotalBytes))
	}
	if r.sandboxHint != "" && deniedInOutput(r.Output) {
		notes = append(notes, r.sandboxHint)
	}
	return strings.Join(notes, "\n")
}

// denials are the error texts of an access the sandbox denied.
var denials = [][]byte{[]byte("Permission denied"), []byte("Read-only file system"), []byte("Operation not permitted")}

// deniedInOutput reports whether out holds one of the denials.
func deniedInOutput(out []byte) bool {
	for _, d := range denials {
		if bytes.Contains(out, d) {
			return true
		}
	}
	return false
}
