package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// writeConfig writes the user's smith.kdl (SMITH_HOME/smith.kdl).
func (e *env) writeConfig(text string) string {
	e.t.Helper()
	if err := os.MkdirAll(e.home, 0o755); err != nil {
		e.t.Fatal(err)
	}
	p := filepath.Join(e.home, "smith.kdl")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// writeProjectConfig writes the project's .smith/smith.kdl.
func (e *env) writeProjectConfig(text string) string {
	e.t.Helper()
	dir := filepath.Join(e.cwd, ".smith")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		e.t.Fatal(err)
	}
	p := filepath.Join(dir, "smith.kdl")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// placeholders replaces a test's temporary paths in output.
func (e *env) placeholders(s string) string {
	return strings.NewReplacer(e.home, "$HOME", e.cwd, "$PROJECT").Replace(s)
}

const literalKey = "sk-config-LITERAL-9c8b7a"

// TestConfigShow: every resolved value is printed with its source — the
// user's file, the trusted project's file, the environment, a flag or the
// default — and credentials never are.
func TestConfigShow(t *testing.T) {
	e := newEnv(t)
	e.writeConfig(`model "claude-sonnet-4-5"
thinking "medium"
provider "anthropic" {
    base-url "https://user.example/anthropic"
    credential env="WORK_ANTHROPIC_KEY"
}
provider "local" {
    api "openai-compatible"
    base-url "http://me:hunter2@127.0.0.1:8000/v1"
    credential key="` + literalKey + `"
    quirks {
        max-tokens-field "max_tokens"
    }
}
alias "fast" "anthropic/claude-haiku-4-5"
group "steady" "anthropic/claude-sonnet-4-5" "local/qwen3"
trusted-project "` + e.cwd + `"
`)
	e.writeProjectConfig("thinking \"high\"\nprovider \"anthropic\" {\n    base-url \"https://project.example/anthropic\"\n}\n")
	vars := []string{"SMITH_MAX_OUTPUT_TOKENS=4000", "ANTHROPIC_BASE_URL=https://env.example", "WORK_ANTHROPIC_KEY=sk-not-shown"}
	r := e.runWith(vars, "", "config", "show", "--model", "fast")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	// Column widths depend on the temporary paths, so columns are
	// compared with their padding collapsed.
	// What enforces the sandbox, if anything, depends on the machine
	// (TestSandboxedBash checks the line).
	out := regexp.MustCompile(`(?m)^(bash runs commands in the sandbox: ).*$`).ReplaceAllString(e.placeholders(r.stdout), "${1}SANDBOX")
	golden(t, regexp.MustCompile(`  +`).ReplaceAllString(out, "  "))
	for _, leak := range []string{literalKey, "hunter2", "sk-not-shown"} {
		if strings.Contains(r.stdout+r.stderr, leak) {
			t.Errorf("config show reveals %q", leak)
		}
	}

	r = e.runWith(vars, "", "config", "show", "--output", "json")
	var l struct {
		Files  []struct{ Layer, Path, State string }
		Values []struct{ Path, Value, Source string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &l); err != nil {
		t.Fatalf("json: %v\n%s", err, r.stdout)
	}
	got := map[string]string{}
	for _, v := range l.Values {
		got[v.Path] = v.Value + " @ " + e.placeholders(v.Source)
	}
	want := map[string]string{
		"model":                         "claude-sonnet-4-5 @ $HOME/smith.kdl:1:7",
		"thinking":                      "high @ $PROJECT/.smith/smith.kdl:1:10",
		"max-output-tokens":             "4000 @ env SMITH_MAX_OUTPUT_TOKENS",
		"provider.anthropic.base-url":   "https://project.example/anthropic @ $PROJECT/.smith/smith.kdl:3:14",
		"provider.anthropic.credential": "env WORK_ANTHROPIC_KEY @ $HOME/smith.kdl:5:5",
		"provider.local.credential":     "key [redacted] @ $HOME/smith.kdl:10:5",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %q, want %q", k, got[k], w)
		}
	}
	if len(l.Files) != 2 || l.Files[1].State != "loaded" || l.Files[1].Layer != "project" {
		t.Errorf("files %+v", l.Files)
	}
}

// TestConfigUntrustedProject: an untrusted project's file is not read,
// and says so (on stderr for eval, in the listing for config show).
func TestConfigUntrustedProject(t *testing.T) {
	e := newEnv(t)
	e.demo()
	e.writeProjectConfig("model \"mock\"\n")
	r := e.run("", "config", "show")
	if r.code != 0 || !strings.Contains(r.stdout, "project file: "+filepath.Join(e.cwd, ".smith", "smith.kdl")+" (untrusted)") ||
		!strings.Contains(r.stdout, "(none: pass --model)        default") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = e.run("", "eval", "--no-session", "hi")
	if r.code != exitUsage || !strings.Contains(r.stderr, "is not trusted") || !strings.Contains(r.stderr, "no model selected") {
		t.Errorf("untrusted eval: exit %d\n%s", r.code, r.stderr)
	}
	r = e.run("", "eval", "--trust-project", "--no-session", "hi")
	if r.code != 0 || strings.Contains(r.stderr, "trust") {
		t.Errorf("trusted eval: exit %d, want no note\n%s", r.code, r.stderr)
	}
	r = e.run("", "config", "show", "--trust-project")
	if !strings.Contains(r.stdout, "(loaded; trusted for this run by flag --trust-project)") || !strings.Contains(r.stdout, "mock") {
		t.Errorf("config show --trust-project:\n%s", r.stdout)
	}
}

// TestConfigInvalid: an invalid smith.kdl stops every command that reads
// it with exit 2, naming file:line:col, the field, the value and an
// example, without echoing a literal key.
func TestConfigInvalid(t *testing.T) {
	tests := []struct {
		name string
		text string
		args []string
		want []string
	}{
		{name: "eval", text: "max-output-tokens \"lots\"\n", args: []string{"eval", "--model", "mock", "hi"},
			want: []string{"$HOME/smith.kdl:1:19: max-output-tokens: \"lots\" is not a whole number of tokens", "for example: max-output-tokens 8192", "smith config show"}},
		{name: "config show", text: "provider \"a\" {\n  credential key=\"" + literalKey + "\" env=\"X\"\n}\n", args: []string{"config", "show"},
			want: []string{"$HOME/smith.kdl:2:3: provider.a.credential: needs exactly one of env="}},
		{name: "auth status", text: "modle \"x\"\n", args: []string{"auth", "status"},
			want: []string{"$HOME/smith.kdl:1:1: modle:", "did you mean model?"}},
		{name: "misspelt provider", text: "provider \"antropic\" {\n  base-url \"http://127.0.0.1:1\"\n}\n", args: []string{"config", "show"},
			want: []string{"$HOME/smith.kdl:1:1: provider.antropic:", "did you mean anthropic?"}},
		{name: "misspelt provider in eval", text: "provider \"antropic\" {\n  base-url \"http://127.0.0.1:1\"\n}\n", args: []string{"eval", "--model", "anthropic/claude-sonnet-4-5", "hi"},
			want: []string{"$HOME/smith.kdl:1:1: provider.antropic:", "did you mean anthropic?"}},
		{name: "models", text: "group \"g\" \"a/b\" \"a/b\"\n", args: []string{"models"},
			want: []string{"$HOME/smith.kdl:1:17: group.g: \"a/b\" is listed twice"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.demo()
			e.writeConfig(tt.text)
			r := e.run("", tt.args...)
			msg := e.placeholders(r.stderr)
			if r.code != exitUsage {
				t.Fatalf("exit %d, want %d\n%s", r.code, exitUsage, msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr lacks %q:\n%s", w, msg)
				}
			}
			if strings.Contains(r.stdout+r.stderr, literalKey) {
				t.Error("the literal key leaked")
			}
		})
	}
}

// TestConfigTrust: smith config trust records the current project in the
// user's smith.kdl; from then on its file is read without a flag.
func TestConfigTrust(t *testing.T) {
	e := newEnv(t)
	e.demo()
	e.writeProjectConfig("model \"mock\"\n")
	sub := filepath.Join(e.cwd, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := e.command("", "config", "trust")
	cmd.Dir = sub
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "trusted "+e.cwd) {
		t.Fatalf("config trust: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(e.home, "smith.kdl"))
	if err != nil || string(b) != "trusted-project \""+e.cwd+"\"\n" {
		t.Fatalf("smith.kdl %q %v", b, err)
	}
	e.mustRun("", "eval", "--no-session", "hi") // the project's model "mock" is read
	if r := e.mustRun("", "config", "show"); !strings.Contains(r.stdout, "(loaded; trusted by "+filepath.Join(e.home, "smith.kdl")+":1:17)") {
		t.Errorf("config show:\n%s", r.stdout)
	}
	if r := e.mustRun("", "config", "trust", e.cwd); !strings.Contains(r.stdout, "already trusted") {
		t.Errorf("second trust: %s", r.stdout)
	}
	if r := e.run("", "config", "trust", "a", "b"); r.code != exitUsage {
		t.Errorf("two arguments: exit %d", r.code)
	}
}
