//go:build darwin

package sandbox

import (
	"fmt"
	"os"
)

// sandboxExec is the macOS sandbox wrapper a sandboxed command runs under.
const sandboxExec = "/usr/bin/sandbox-exec"

// probe looks for sandbox-exec.
func probe() Info {
	if _, err := os.Stat(sandboxExec); err != nil {
		return Info{Reason: fmt.Sprintf("%s is missing (%v)", sandboxExec, err)}
	}
	return Info{Available: true, Mechanism: "sandbox-exec", Network: true}
}

// RestrictThread only checks p on macOS: the sandbox is applied by
// running the command under /usr/bin/sandbox-exec with p.Profile(), not to
// the calling thread. It is safe for concurrent use.
func (p Policy) RestrictThread() error { return p.check() }
