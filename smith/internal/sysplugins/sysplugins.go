package sysplugins

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/plugin"
)

// pin is one embedded artifact as pluginbuild recorded it; data is the
// embedded bytes themselves (read-only by convention, never copied).
type pin struct {
	name, file string
	size       int
	sha256     string
	toolchain  string // the compiler that built it: a Go or rustc version
	data       []byte
}

// policy is what a system plugin is granted.
type policy struct {
	grants  []string
	timeout time.Duration
}

// policies are the grants of the system plugins; a plugin not listed is
// granted nothing (provider codecs are pure computation).
var policies = map[string]policy{
	// tools runs processes for up to an hour (its bash maximum).
	"tools": {grants: []string{"fs", "process"}, timeout: time.Hour + time.Minute},
	// product reads AGENTS.md files for its context transform; the host
	// confines those reads, read-only, to the repository and the user's
	// configuration directory (core/plugin's Binding.Context).
	"product": {grants: []string{"fs"}},
	// permissions asks the user about a call in permission mode ask.
	"permissions": {grants: []string{"ui"}},
}

// Names lists the embedded plugins, sorted.
func Names() []string {
	out := make([]string, len(pins))
	for i, p := range pins {
		out[i] = p.name
	}
	slices.Sort(out)
	return out
}

// Artifacts returns the named embedded plugins (all of them when names is
// empty), each checked against its pinned size and carrying its pinned
// SHA-256, the instrumentation it was built with (pluginbuild
// instruments the artifacts for fuel, so no start does) and its
// registration computed ahead (registrations_gen.go), so that even a first
// start compiles only the plugins it calls. The bytes are the
// embedded ones, not a copy: callers must not modify them. The hash itself is verified once, by core/plugin, before anything in
// the artifact executes; hashing here too would read every artifact twice.
func Artifacts(names ...string) ([]plugin.Artifact, error) {
	return load(pins, instrumented, names)
}

func load(pins []pin, instrumented string, names []string) ([]plugin.Artifact, error) {
	for _, n := range names {
		if !slices.ContainsFunc(pins, func(p pin) bool { return p.name == n }) {
			return nil, fmt.Errorf("sysplugins: no embedded plugin %q (embedded: %s)", n, strings.Join(Names(), ", "))
		}
	}
	var out []plugin.Artifact
	for _, p := range pins {
		if len(names) > 0 && !slices.Contains(names, p.name) {
			continue
		}
		b := p.data
		if len(b) == 0 {
			return nil, fmt.Errorf("sysplugins: embedded %s is empty; rebuild with go run ./tools/pluginbuild", p.file)
		}
		if len(b) != p.size {
			return nil, fmt.Errorf("sysplugins: embedded %s is %d bytes; pinned %d bytes with SHA-256 %s (built with %s): the artifact was tampered with or not rebuilt; run go run ./tools/pluginbuild", p.file, len(b), p.size, p.sha256, p.toolchain)
		}
		pol := policies[p.name]
		out = append(out, plugin.Artifact{Name: p.name, Wasm: b, SHA256: p.sha256, Grants: pol.grants, Timeout: pol.timeout,
			Instrumented: instrumented, Registration: []byte(registrations[p.name])})
	}
	return out, nil
}
