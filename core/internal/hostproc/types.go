package hostproc

import (
	"fmt"
	"time"

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
}

// Notice returns the truncation notice to show with the output, or "".
func (r Result) Notice() string {
	if !r.Truncated {
		return ""
	}
	return fmt.Sprintf("[output truncated: showing the last %d of %d bytes]", len(r.Output), r.TotalBytes)
}
