package runtime

import (
	"github.com/smith-agent/smith/core/internal/sandbox"
)

// sandboxPolicy is the sandbox of the processes the tools start, from the
// configuration (sandbox, sandbox-network), writable in roots.
func (rt *Runtime) sandboxPolicy(roots []string) sandbox.Policy {
	return sandbox.Policy{Mode: sandbox.Mode(rt.conf.SandboxMode()), Network: rt.conf.NetworkAllowed(), Roots: roots}
}

// roots are the directories the session's tools are confined to: the
// working directory, then the configured roots (roots, --add-dir).
func (rt *Runtime) roots() []string {
	out := []string{rt.cfg.Cwd}
	for _, r := range rt.conf.RootPaths() {
		if r != rt.cfg.Cwd {
			out = append(out, r)
		}
	}
	return out
}

// Sandbox describes the sandbox bash's commands run in on this machine,
// for example "workspace-write (writes: /p, temp dir), network allowed;
// Landlock ABI 7", or why it is unavailable. It is safe for concurrent
// use.
func (rt *Runtime) Sandbox() string { return rt.sandboxPolicy(rt.roots()).Describe() }

// sandboxNote is the note at open when the configured sandbox cannot be
// enforced here, or "".
func (rt *Runtime) sandboxNote() string {
	p := rt.sandboxPolicy(rt.roots())
	if p.Mode == sandbox.Off || sandbox.Probe().Available {
		return ""
	}
	return "sandbox: " + p.Describe() + " (sandbox \"off\" in smith.kdl or --sandbox off silences this)"
}
