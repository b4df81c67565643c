package mockprovider

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

//go:embed scripts/*.mock.json
var scripts embed.FS

// Prefix is the model name that selects the mock provider.
const Prefix = "mock"

// Is reports whether the --model value m selects the mock provider: "mock"
// or "mock/<script>".
func Is(m string) bool { return m == Prefix || strings.HasPrefix(m, Prefix+"/") }

// ScriptNames returns the embedded scripts' names, sorted.
func ScriptNames() []string {
	ents, _ := scripts.ReadDir("scripts")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".mock.json"))
	}
	sort.Strings(out)
	return out
}

// Named returns the mock provider for the --model value m: "mock" plays the
// embedded "demo" script; "mock/NAME" an embedded script; "mock/PATH" the
// script file at PATH (relative to cwd).
func Named(m, cwd string) (*Provider, error) {
	ref := "demo"
	if m != Prefix {
		ref = strings.TrimPrefix(m, Prefix+"/")
	}
	if b, err := scripts.ReadFile("scripts/" + ref + ".mock.json"); err == nil {
		s, err := Parse(b)
		if err != nil {
			return nil, fmt.Errorf("mockprovider: embedded script %q: %w", ref, err)
		}
		return New(s), nil
	}
	path := ref
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("mockprovider: --model %q: %q is neither an embedded mock script (%s) nor a readable script file (%v); use --model mock for the demo, or mock/PATH to a mock script", m, ref, strings.Join(ScriptNames(), ", "), err)
	}
	return Load(path)
}
