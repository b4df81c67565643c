package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/pluginpkg"
)

// importsWasm is a core module that only imports the functions named
// (module, name pairs), each of type () -> ().
func importsWasm(pairs ...string) []byte {
	uleb := func(n int) []byte {
		var b []byte
		for {
			c := byte(n & 0x7f)
			n >>= 7
			if n != 0 {
				c |= 0x80
			}
			b = append(b, c)
			if n == 0 {
				return b
			}
		}
	}
	name := func(s string) []byte { return append(uleb(len(s)), s...) }
	section := func(id byte, body []byte) []byte { return append(append([]byte{id}, uleb(len(body))...), body...) }
	imports := uleb(len(pairs) / 2)
	for i := 0; i+1 < len(pairs); i += 2 {
		imports = append(append(append(imports, name(pairs[i])...), name(pairs[i+1])...), 0x00, 0x00)
	}
	out := []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}
	out = append(out, section(1, []byte{0x01, 0x60, 0x00, 0x00})...)
	return append(out, section(2, imports)...)
}

// TestPluginCheck: smith plugin check passes a package that uses the world
// as it is (and says it loads, with what it contributes); names each
// import no world declares and an artifact built for another world
// version, with the fix, exiting 1; and doctor deprecator has nothing to
// migrate in a clean package.
func TestPluginCheck(t *testing.T) {
	e := newEnv(t)
	shout := shoutPackage(t, t.TempDir(), "shout")
	r := e.mustRun("", "plugin", "check", shout)
	for _, want := range []string{"uses no deprecated or removed item", "loads        yes; contributes"} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("check of a clean package lacks %q:\n%s", want, r.stdout)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.wasm")
	if err := os.WriteFile(bad, importsWasm("smith:plugin/fs@0.0.0", "frobnicate", "wasi_snapshot_preview1", "fd_write"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = e.run("", "plugin", "check", bad)
	if r.code != 1 || !strings.Contains(r.stdout, `unknown      fs.frobnicate (import "smith:plugin/fs@0.0.0" "frobnicate"): is not part of world smith:plugin@0.0.0`) ||
		!strings.Contains(r.stdout, "remove it, or rebuild") || strings.Contains(r.stdout, "fd_write") {
		t.Fatalf("check of an unknown import: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	old := filepath.Join(dir, "old.wasm")
	if err := os.WriteFile(old, importsWasm("smith:plugin/fs@0.9.0", "read-file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := e.run("", "plugin", "check", old); r.code != 1 || !strings.Contains(r.stdout, "built for smith:plugin@0.9.0; this Smith serves smith:plugin@0.0.0") {
		t.Fatalf("check of another version: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := e.run("", "plugin", "check", filepath.Join(dir, "none.wasm")); r.code != 2 || !strings.Contains(r.stderr, "does not exist") {
		t.Fatalf("check of a missing path: exit %d %s", r.code, r.stderr)
	}
	if r := e.mustRun("", "doctor", "deprecator", shout); !strings.Contains(r.stdout, "nothing to migrate") {
		t.Fatalf("doctor deprecator of a clean package:\n%s", r.stdout)
	}
}

// TestDeprecatorPrompt: the agent is given each deprecated or removed
// item with the world's own migration — replacement, steps, before and
// after — and told to confirm with plugin check and to stop where a
// person must decide.
func TestDeprecatorPrompt(t *testing.T) {
	d := &pluginpkg.Deprecation{Item: "vcs.take-snapshot", Since: "0.2.0", Removal: "0.3.0", Replacement: "vcs.take-checkpoint",
		Steps: "Call take-checkpoint with the same note.", Before: "vcs.TakeSnapshot(note)", After: "vcs.TakeCheckpoint(note)"}
	c := pluginCheck{path: "./snap", name: "snap", findings: []pluginpkg.Finding{
		{Kind: pluginpkg.FindingUnknown, Item: "fs.frobnicate", Use: "import", Text: "t", Fix: "f"},
		{Kind: pluginpkg.FindingDeprecated, Item: d.Item, Use: `import "smith:plugin/vcs@0.2.1" "take-snapshot"`, Text: "deprecated in 0.2.0, removed in 0.3.0", Fix: "x", Migration: d},
	}}
	p, ok := deprecatorPrompt(c)
	if !ok {
		t.Fatal("nothing to migrate, with a deprecated item")
	}
	for _, want := range []string{"1. `vcs.take-snapshot` (deprecated in 0.2.0, removed in 0.3.0;", "use `vcs.take-checkpoint` instead",
		d.Steps, "```\nvcs.TakeSnapshot(note)\n```", "```\nvcs.TakeCheckpoint(note)\n```", "`smith plugin check ./snap`", "stop and say what needs a person's decision"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "frobnicate") {
		t.Errorf("the prompt asks to migrate an item with no migration:\n%s", p)
	}
	if _, ok := deprecatorPrompt(pluginCheck{findings: c.findings[:1]}); ok {
		t.Error("a prompt with nothing to migrate")
	}
}
