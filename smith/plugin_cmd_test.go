package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	guestsMu sync.Mutex
	guests   = map[string]string{} // source directory → built .wasm
)

// guestWasm builds the test plugin in the source directory dir (relative
// to this package) once per test binary with the standard toolchain.
func guestWasm(t *testing.T, dir string) string {
	t.Helper()
	guestsMu.Lock()
	defer guestsMu.Unlock()
	if p, ok := guests[dir]; ok {
		return p
	}
	out := filepath.Join(filepath.Dir(smithBin), filepath.Base(dir)+".wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, dir)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatal(errors.New(err.Error() + "\n" + string(msg)))
	}
	guests[dir] = out
	return out
}

// shoutWasm builds the test plugin of core/pluginpkg (one tool, shout,
// that answers its text in capitals).
func shoutWasm(t *testing.T) string { return guestWasm(t, "../core/pluginpkg/testdata/shout") }

// shoutPackage writes a package directory named dir (under a temp dir)
// whose plugin is called name.
func shoutPackage(t *testing.T, parent, name string) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(shoutWasm(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shout.wasm"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	m := "name \"" + name + "\"\nversion \"0.1.0\"\nworld \"0.0.0\"\nartifact \"shout.wasm\"\ncapability \"fs\"\n"
	if err := os.WriteFile(filepath.Join(dir, "plugin.kdl"), []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shoutScript is a mock script calling the plugin's tool and a system
// tool, then answering.
const shoutScript = `{"mock_script":1,"responses":[
 {"tool_calls":[{"id":"call_1","name":"shout","arguments":{"text":"hello"}},{"id":"call_2","name":"ls","arguments":{}}]},
 {"text":"done"}]}`

func TestPluginInstallListRemove(t *testing.T) {
	e := newEnv(t)
	pkg := shoutPackage(t, t.TempDir(), "shout")
	r := e.mustRun("", "plugin", "install", pkg)
	for _, w := range []string{"installed plugin shout 0.1.0", "granted      fs", "contributes  tools: shout", "SHA-256 "} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("install output lacks %q:\n%s", w, r.stdout)
		}
	}
	r = e.mustRun("", "plugin", "list")
	if !strings.Contains(r.stdout, "shout") || !strings.Contains(r.stdout, "user    enabled  fs") || !strings.Contains(r.stdout, "tools: read, write") {
		t.Fatalf("list:\n%s", r.stdout)
	}
	var entries []struct {
		Name, Tier, Status, SHA256 string
		Contributions              struct{ Tools []string }
	}
	if err := json.Unmarshal([]byte(e.mustRun("", "plugin", "list", "--output", "json").stdout), &entries); err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if last.Name != "shout" || last.Tier != "user" || last.Status != "enabled" || len(last.SHA256) != 64 || last.Contributions.Tools[0] != "shout" {
		t.Fatalf("list json: %+v", entries)
	}
	e.mustRun("", "plugin", "disable", "shout")
	if r := e.mustRun("", "plugin", "info", "shout"); !strings.Contains(r.stdout, "status       disabled") {
		t.Fatalf("info after disable:\n%s", r.stdout)
	}
	e.mustRun("", "plugin", "enable", "shout")
	if r := e.mustRun("", "plugin", "info", "-o", "json", "shout"); !strings.Contains(r.stdout, `"status": "enabled"`) {
		t.Fatalf("info json:\n%s", r.stdout)
	}
	grants, err := os.ReadFile(filepath.Join(e.home, "plugins", "grants.json"))
	if err != nil || !strings.Contains(string(grants), `"capabilities": [`) || !strings.Contains(string(grants), `"installed"`) {
		t.Fatalf("grants.json: %s %v", grants, err)
	}
	e.mustRun("", "plugin", "remove", "shout")
	if r := e.mustRun("", "plugin", "list"); strings.Contains(r.stdout, "shout") {
		t.Fatalf("list after remove:\n%s", r.stdout)
	}
	for _, args := range [][]string{
		{"plugin", "remove", "shout"},
		{"plugin", "enable", "Bad_Name"},
		{"plugin", "info"},
		{"plugin", "install"},
		{"plugin", "install", filepath.Join(t.TempDir(), "none")},
		{"plugin", "install", "--name", "x", pkg},
		{"plugin", "install", "--name", "smith-x", shoutWasm(t)},
		{"plugin", "install", "--name", "tools", shoutWasm(t)},
		{"plugin", "install", filepath.Join(pkg, "plugin.kdl")},
		{"plugin", "list", "-o", "yaml"},
	} {
		if r := e.run("", args...); r.code != exitUsage || r.stderr == "" {
			t.Errorf("smith %s: exit %d, want %d; stderr %q", strings.Join(args, " "), r.code, exitUsage, r.stderr)
		}
	}
}

func TestPluginEvalCallsUserTool(t *testing.T) {
	e := newEnv(t)
	m := e.script("shout.json", shoutScript)
	// A bare .wasm with its manifest given as flags.
	r := e.mustRun("", "plugin", "install", "--name", "shout", "--version", "1.2.3", "--capability", "fs", shoutWasm(t))
	if !strings.Contains(r.stdout, "installed plugin shout 1.2.3") {
		t.Fatalf("install:\n%s", r.stdout)
	}
	r = e.mustRun("", "eval", "--model", m, "--no-session", "--output", "json", "shout hello")
	if !strings.Contains(r.stdout, "HELLO!") || strings.Contains(r.stdout, "not available") || !strings.Contains(r.stdout, "shout.json") {
		t.Fatalf("eval:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

func TestPluginChangedArtifactRefused(t *testing.T) {
	e := newEnv(t)
	m := e.script("shout.json", shoutScript)
	e.mustRun("", "plugin", "install", shoutPackage(t, t.TempDir(), "shout"))
	art := filepath.Join(e.home, "plugins", "shout", "shout.wasm")
	f, err := os.OpenFile(art, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Write([]byte{0})
	f.Close()
	r := e.mustRun("", "eval", "--model", m, "--no-session", "shout hello")
	if !strings.Contains(r.stderr, `skipped the plugin "shout"`) || !strings.Contains(r.stderr, "smith plugin install PATH") {
		t.Fatalf("no note naming the plugin:\n%s", r.stderr)
	}
	if strings.Contains(r.stdout, "HELLO!") || !strings.Contains(r.stdout, `tool "shout" is not available`) {
		t.Fatalf("the changed plugin ran:\n%s", r.stdout)
	}
	if r := e.mustRun("", "plugin", "list"); !strings.Contains(r.stdout, "changed") {
		t.Fatalf("list:\n%s", r.stdout)
	}
}

func TestPluginConflicts(t *testing.T) {
	e := newEnv(t)
	m := e.script("shout.json", shoutScript)
	e.mustRun("", "plugin", "install", shoutPackage(t, t.TempDir(), "shout"))
	r := e.run("", "plugin", "install", shoutPackage(t, t.TempDir(), "shout-two"))
	if r.code != exitUsage || !strings.Contains(r.stderr, `tool "shout" is declared by both "shout" and "shout-two"`) || !strings.Contains(r.stderr, "smith plugin disable") {
		t.Fatalf("install of a conflicting plugin: exit %d\n%s", r.code, r.stderr)
	}
	// A one-run plugin declaring the same tool is skipped; the rest load.
	r = e.mustRun("", "--plugin", shoutPackage(t, t.TempDir(), "shout-two"), "eval", "--model", m, "--no-session", "-o", "json", "shout hello")
	if strings.Contains(r.stdout, "skipped") || !strings.Contains(r.stderr, `skipped the flag plugin "shout-two"`) {
		t.Errorf("with -o json the note belongs on stderr:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
	r = e.mustRun("", "--plugin", shoutPackage(t, t.TempDir(), "shout-two"), "eval", "--model", m, "--no-session", "shout hello")
	if !strings.Contains(r.stderr, `skipped the flag plugin "shout-two"`) || !strings.Contains(r.stderr, `declared by both "shout" and "shout-two"`) {
		t.Fatalf("no note naming both:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, "HELLO!") {
		t.Fatalf("the installed plugin did not run:\n%s", r.stdout)
	}
}

func TestPluginFlagOneRun(t *testing.T) {
	e := newEnv(t)
	m := e.script("shout.json", shoutScript)
	r := e.mustRun("", "eval", "--plugin", shoutPackage(t, t.TempDir(), "shout"), "--model", m, "--no-session", "shout hello")
	if !strings.Contains(r.stdout, "HELLO!") {
		t.Fatalf("eval --plugin:\n%s\n%s", r.stdout, r.stderr)
	}
	if r := e.mustRun("", "plugin", "list"); strings.Contains(r.stdout, "shout") {
		t.Fatalf("--plugin was recorded:\n%s", r.stdout)
	}
	if r := e.mustRun("", "--plugin", shoutPackage(t, t.TempDir(), "shout"), "plugin", "list"); !strings.Contains(r.stdout, "flag    enabled  fs") || !strings.Contains(r.stdout, "tools: shout") {
		t.Fatalf("plugin list with --plugin:\n%s", r.stdout)
	}
	if r := e.run("", "eval", "--plugin", t.TempDir(), "--model", m, "--no-session", "hi"); r.code != exitUsage || !strings.Contains(r.stderr, "plugin.kdl") {
		t.Fatalf("--plugin of a directory without plugin.kdl: exit %d %s", r.code, r.stderr)
	}
}

func TestProjectPluginsNeedTrust(t *testing.T) {
	e := newEnv(t)
	m := e.script("shout.json", shoutScript)
	shoutPackage(t, filepath.Join(e.cwd, ".smith", "plugins"), "loud")
	r := e.mustRun("", "eval", "--model", m, "--no-session", "shout hello")
	if !strings.Contains(r.stderr, "ignored the project's plugins") || !strings.Contains(r.stderr, "--trust-project") || strings.Contains(r.stdout, "HELLO!") {
		t.Fatalf("untrusted project:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
	if r := e.mustRun("", "plugin", "list"); strings.Contains(r.stdout, "loud") {
		t.Fatalf("an untrusted project's plugin is listed:\n%s", r.stdout)
	}
	r = e.mustRun("", "eval", "--trust-project", "--model", m, "--no-session", "shout hello")
	if strings.Contains(r.stderr, "ignored the project's plugins") || !strings.Contains(r.stdout, "HELLO!") {
		t.Fatalf("trusted project:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
	// A persisted decision (smith config trust) trusts it too; nothing is
	// recorded in the plugin store.
	e.mustRun("", "config", "trust")
	if r := e.mustRun("", "plugin", "list"); !strings.Contains(r.stdout, "loud") || !strings.Contains(r.stdout, "project  enabled  fs") || !strings.Contains(r.stdout, "tools: shout") {
		t.Fatalf("a trusted project's plugin in plugin list:\n%s", r.stdout)
	}
	r = e.mustRun("", "eval", "--model", m, "--no-session", "shout hello")
	if strings.Contains(r.stderr, "ignored the project's plugins") || !strings.Contains(r.stdout, "HELLO!") {
		t.Fatalf("project trusted by smith config trust:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(e.home, "plugins", "grants.json")); err == nil {
		t.Fatal("a project plugin was recorded")
	}
}

// TestPluginStateAcrossRuns: a plugin granted state keeps a value from
// one smith process to the next in the session, and session show says
// what it committed.
func TestPluginStateAcrossRuns(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(t.TempDir(), "stateguest")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(guestWasm(t, "../core/plugin/testdata/stateguest"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stateguest.wasm"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := "name \"stateguest\"\nversion \"0.1.0\"\nworld \"0.0.0\"\nartifact \"stateguest.wasm\"\ncapability \"state\"\n"
	if err := os.WriteFile(filepath.Join(dir, "plugin.kdl"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	call := func(op string) string {
		return e.script(strings.ReplaceAll(op, " ", "-")+".json", `{"mock_script":1,"responses":[
			{"tool_calls":[{"id":"c1","name":"state","arguments":{"arguments":"`+op+`"}}]},{"text":"ok"}]}`)
	}
	e.mustRun("", "eval", "--plugin", dir, "--model", call("write todo [1]"), "--session", "st", "remember")
	e.mustRun("", "eval", "--plugin", dir, "--model", call("read todo"), "--session", "st", "recall")
	r := e.mustRun("", "session", "show", "st")
	for _, want := range []string{`[plugin stateguest state: set "todo" to 3 byte(s), version 1]`, `{"result":{"Value":"[1]","Version":1}}`} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("session show lacks %s:\n%s", want, r.stdout)
		}
	}
}
