package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
)

// Mode is what a sandboxed process may write.
type Mode string

const (
	// WorkspaceWrite allows writes only inside Roots, the temp dir
	// (os.TempDir()) and Writable, and to the devices ReadOnly allows (on
	// Linux also /dev/shm, for POSIX shared memory); reads are allowed
	// anywhere.
	WorkspaceWrite Mode = "workspace-write"
	// ReadOnly allows no writes anywhere except to /dev/null-like devices
	// (/dev/null, /dev/zero, /dev/full, /dev/random, /dev/urandom, /dev/tty
	// and terminals); reads are allowed anywhere.
	ReadOnly Mode = "read-only"
	// Off is no sandbox.
	Off Mode = "off"
)

// ParseMode parses a mode name ("workspace-write", "read-only" or "off"),
// ignoring case and surrounding space. The error names the value and the
// three valid names.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case WorkspaceWrite, ReadOnly, Off:
		return m, nil
	}
	return "", fmt.Errorf("sandbox: unknown mode %q; use %q, %q or %q", s, WorkspaceWrite, ReadOnly, Off)
}

// Policy is the sandbox for one process. The zero Policy is Off: Mode ""
// means Off, and then no other field matters; a mode name is matched as
// ParseMode does. Network defaults to false
// (denied) when a mode is set, so a caller that wants the product's
// default (network allowed) sets it. A Policy is a value; it is safe for
// concurrent use while nobody modifies its slices.
type Policy struct {
	// Mode is what the process may write; "" means Off.
	Mode Mode
	// Network allows outbound and inbound TCP when true (default in
	// product: true).
	Network bool
	// Roots are absolute directories a WorkspaceWrite process may write
	// (the working roots). A root that does not exist is skipped.
	Roots []string
	// Writable are extra absolute paths (directories or files) writable in
	// WorkspaceWrite mode (configured paths). One that does not exist is
	// skipped.
	Writable []string
}

// Info is what the platform offers.
type Info struct {
	// Available reports that the sandbox can be enforced here.
	Available bool
	// Mechanism is "landlock", "sandbox-exec" or "" (none).
	Mechanism string
	// ABI is the Landlock ABI version found (0 when not Linux).
	ABI int
	// Network reports that the network restriction can be enforced
	// (Landlock ABI >= 4, or sandbox-exec).
	Network bool
	// Reason says why the sandbox is not available, for a visible note.
	Reason string
}

var probed = sync.OnceValue(probe)

// Probe reports what this machine offers. It is computed once and cached;
// it is safe for concurrent use.
func Probe() Info { return probed() }

// mode is p.Mode as one of the three names ("" is Off), or an error for
// an unknown one.
func (p Policy) mode() (Mode, error) {
	if p.Mode == "" {
		return Off, nil
	}
	return ParseMode(string(p.Mode))
}

// enabled reports whether p asks for a sandbox (a known mode other than
// Off).
func (p Policy) enabled() bool {
	m, err := p.mode()
	return err == nil && m != Off
}

// check reports a policy that cannot be enforced as given: an unknown mode
// or a relative path.
func (p Policy) check() error {
	if _, err := p.mode(); err != nil {
		return err
	}
	for _, list := range [][]string{p.Roots, p.Writable} {
		for _, path := range list {
			if !filepath.IsAbs(path) {
				return fmt.Errorf("sandbox: writable path %q is not absolute; give it as an absolute path", path)
			}
		}
	}
	return nil
}

// writes returns the paths a WorkspaceWrite process may write besides the
// temp dir and devices: Roots then Writable, cleaned, without repeats; nil
// in any other mode.
func (p Policy) writes() []string {
	if m, _ := p.mode(); m != WorkspaceWrite {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, list := range [][]string{p.Roots, p.Writable} {
		for _, path := range list {
			path = filepath.Clean(path)
			if !seen[path] {
				seen[path] = true
				out = append(out, path)
			}
		}
	}
	return out
}

// Describe returns a one-line human description of the sandbox p puts a
// process in on this machine, for example "workspace-write (writes: /a,
// /b, temp dir), network allowed; Landlock ABI 7", "off", or
// "workspace-write requested but unavailable: <reason>; commands run
// unsandboxed".
func (p Policy) Describe() string { return p.describe(Probe()) }

func (p Policy) describe(info Info) string {
	if err := p.check(); err != nil {
		return "invalid: " + err.Error()
	}
	if !p.enabled() {
		return string(Off)
	}
	m, _ := p.mode()
	if !info.Available {
		return fmt.Sprintf("%s requested but unavailable: %s; commands run unsandboxed", m, info.Reason)
	}
	var b strings.Builder
	b.WriteString(string(m))
	if m == WorkspaceWrite {
		fmt.Fprintf(&b, " (writes: %s)", strings.Join(append(p.writes(), "temp dir"), ", "))
	} else {
		b.WriteString(" (no writes)")
	}
	switch {
	case p.Network:
		b.WriteString(", network allowed")
	case info.Network:
		b.WriteString(", network denied")
	default:
		fmt.Fprintf(&b, ", network not restricted (needs Landlock ABI 4, found %d)", info.ABI)
	}
	if info.Mechanism == "landlock" {
		fmt.Fprintf(&b, "; Landlock ABI %d", info.ABI)
	} else {
		b.WriteString("; " + info.Mechanism)
	}
	return b.String()
}
