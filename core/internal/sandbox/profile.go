package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// profileDevices are the device paths a sandboxed process may write on
// macOS, in any mode: shells write to /dev/null constantly, and commands
// to their terminal.
const profileDevices = `  (literal "/dev/null")
  (literal "/dev/zero")
  (literal "/dev/tty")
  (literal "/dev/ptmx")
  (literal "/dev/dtracehelper")
  (literal "/dev/stdout")
  (literal "/dev/stderr")
  (subpath "/dev/fd")
  (regex #"^/dev/ttys[0-9]+$")`

// Profile returns the SBPL profile sandbox-exec enforces for p on macOS:
// everything allowed except file writes outside the writable paths
// (Roots, Writable and os.TempDir() in WorkspaceWrite mode; only devices
// in ReadOnly mode), and all network use when Network is false. Paths are
// given with symlinks resolved where they exist, since macOS matches real
// paths (/tmp is /private/tmp). An Off policy allows everything. It is
// safe for concurrent use.
func (p Policy) Profile() string { return p.profile(realPath(os.TempDir()), realPath) }

// profile builds Profile with tempDir as the temp dir and real resolving
// each writable path.
func (p Policy) profile(tempDir string, real func(string) string) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n")
	if !p.enabled() {
		return b.String()
	}
	b.WriteString("(deny file-write*)\n(allow file-write*\n")
	if m, _ := p.mode(); m == WorkspaceWrite {
		for _, path := range append(p.writes(), tempDir) {
			b.WriteString("  (subpath " + quote(real(path)) + ")\n")
		}
	}
	b.WriteString(profileDevices + ")\n")
	if !p.Network {
		b.WriteString("(deny network*)\n")
	}
	return b.String()
}

// realPath is path with its symlinks resolved, or path cleaned when it
// cannot be resolved (it does not exist).
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}

// quote is s as an SBPL string literal.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
