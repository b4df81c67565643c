package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildScaffold runs name (a command of the scaffolded package dir, such
// as go test) with the toolchains the test suite installs.
func buildScaffold(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local", "RUSTC=/usr/bin/rustc")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// TestPluginNew scaffolds a plugin in each language, runs its own tests,
// builds it with its build script and runs its tool (through a mock
// model) and its command from smith, then installs it.
func TestPluginNew(t *testing.T) {
	tests := []struct {
		name, lang string
		test       []string // the package's own test command
		format     []string // a formatter listing or failing on unformatted sources
	}{
		{name: "hello-go", lang: "go", test: []string{"go", "test", "./..."}, format: []string{"gofmt", "-l", "main.go", "main_test.go"}},
		{name: "hello-rust", lang: "rust", test: []string{"./build.sh", "test"}, format: []string{"/usr/bin/rustfmt", "--edition", "2021", "--check", "src/lib.rs"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			dir := filepath.Join(t.TempDir(), tt.name)
			r := e.mustRun("", "plugin", "new", "--lang", tt.lang, "--dir", dir, tt.name)
			tool := strings.ReplaceAll(tt.name, "-", "_") + "_reverse"
			for _, w := range []string{"wrote the " + tt.lang + " plugin " + tt.name, "plugin.kdl", "build.sh", "the tool " + tool, "smith --plugin " + dir + " eval"} {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("plugin new output lacks %q:\n%s", w, r.stdout)
				}
			}
			if out := buildScaffold(t, dir, tt.format[0], tt.format[1:]...); out != "" {
				t.Errorf("the scaffold is not formatted:\n%s", out)
			}
			if out := buildScaffold(t, dir, tt.test[0], tt.test[1:]...); !strings.Contains(out, "ok") {
				t.Fatalf("the package's tests:\n%s", out)
			}
			buildScaffold(t, dir, "./build.sh")
			r = e.mustRun("", "--plugin", dir, "eval", "--no-session", "/"+tt.name+" Ada")
			if want := "/" + tt.name + ": Hello, Ada, from the " + tt.name + " plugin."; !strings.Contains(r.stdout, want) {
				t.Fatalf("the command printed %q, want %q (stderr %q)", r.stdout, want, r.stderr)
			}
			m := e.script("reverse.json", `{"mock_script":1,"responses":[
 {"tool_calls":[{"id":"call_1","name":"`+tool+`","arguments":{"text":"héllo"}}]},
 {"text":"done"}]}`)
			r = e.mustRun("", "--plugin", dir, "eval", "--model", m, "--no-session", "reverse héllo")
			if !strings.Contains(r.stdout, "olléh") || !strings.Contains(r.stdout, "done") {
				t.Fatalf("the tool's call:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			}
			if r := e.mustRun("", "plugin", "install", dir); !strings.Contains(r.stdout, "installed plugin "+tt.name+" 0.1.0") || !strings.Contains(r.stdout, "commands: "+tt.name) {
				t.Fatalf("install:\n%s", r.stdout)
			}
		})
	}
}

func TestPluginNewRefusals(t *testing.T) {
	e := newEnv(t)
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no name", args: []string{"plugin", "new"}, want: "expected one plugin name"},
		{name: "bad name", args: []string{"plugin", "new", "Hello_World"}, want: `plugin name "Hello_World"`},
		{name: "bad language", args: []string{"plugin", "new", "--lang", "zig", "--dir", filepath.Join(t.TempDir(), "x"), "x"}, want: `language "zig" is not one of go, rust`},
		{name: "directory in use", args: []string{"plugin", "new", "--dir", full, "x"}, want: "already exists and is not empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.run("", tt.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Fatalf("smith %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tt.args, " "), r.code, r.stderr, exitUsage, tt.want)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(full, "keep.txt")); err != nil || string(b) != "mine" {
		t.Fatalf("the refused directory was touched: %q %v", b, err)
	}
	if ents, _ := os.ReadDir(full); len(ents) != 1 {
		t.Fatalf("the refused directory holds %d entries", len(ents))
	}
}
