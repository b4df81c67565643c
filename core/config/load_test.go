package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// project makes a project directory holding .smith/smith.kdl and returns
// the project root and a subdirectory to work in.
func project(t *testing.T, text string) (root, sub string) {
	t.Helper()
	root = t.TempDir()
	sub = filepath.Join(root, "src", "pkg")
	if err := os.MkdirAll(filepath.Join(root, ".smith"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, sub
}

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// TestPrecedence: default < plugin defaults < plugin contributions < user
// < trusted project < environment < flags, each value with its source.
func TestPrecedence(t *testing.T) {
	root, sub := project(t, "model \"project/m\"\nthinking \"low\"\nprovider \"anthropic\" {\n    base-url \"http://project.test\"\n}\n")
	userText := "model \"user/m\"\nthinking \"medium\"\nmax-output-tokens 1000\nprovider \"anthropic\" {\n    base-url \"http://user.test\"\n    credential env=\"USER_KEY\"\n}\ntrusted-project " + `"` + root + `"` + "\n"
	user := writeUser(t, userText)
	plugins := []Contribution{
		{Plugin: "base", Defaults: true, Text: []byte("max-output-tokens 10\nalias \"fast\" \"base/m\"\n")},
		{Plugin: "extra", Text: []byte("alias \"fast\" \"extra/m\"\n")},
	}
	tests := []struct {
		name  string
		in    Inputs
		model string // value @ source
		think string
		max   string
		base  string
		alias string
	}{
		{name: "defaults only", in: Inputs{LookupEnv: noEnv},
			model: " @ default", think: " @ default", max: "0 @ default", base: " @ default", alias: ""},
		{name: "plugins", in: Inputs{Plugins: plugins, LookupEnv: noEnv},
			model: " @ default", think: " @ default", max: "10 @ plugin-default base", alias: "extra/m @ plugin extra"},
		{name: "user over plugins", in: Inputs{Plugins: plugins, UserFile: user, LookupEnv: noEnv},
			model: "user/m @ " + user + ":1:7", think: "medium @ " + user + ":2:10", max: "1000 @ " + user + ":3:19",
			base: "http://user.test @ " + user + ":5:14", alias: "extra/m @ plugin extra"},
		{name: "trusted project over user", in: Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv},
			model: "project/m @ " + filepath.Join(root, ProjectFile) + ":1:7", think: "low @ " + filepath.Join(root, ProjectFile) + ":2:10",
			max: "1000 @ " + user + ":3:19", base: "http://project.test @ " + filepath.Join(root, ProjectFile) + ":4:14"},
		{name: "environment over project", in: Inputs{UserFile: user, ProjectDir: sub,
			LookupEnv: envOf(map[string]string{"SMITH_MODEL": "env/m", "SMITH_MAX_OUTPUT_TOKENS": "77"})},
			model: "env/m @ env SMITH_MODEL", think: "low @ " + filepath.Join(root, ProjectFile) + ":2:10", max: "77 @ env SMITH_MAX_OUTPUT_TOKENS",
			base: "http://project.test @ " + filepath.Join(root, ProjectFile) + ":4:14"},
		{name: "flags over environment", in: Inputs{UserFile: user, ProjectDir: sub,
			LookupEnv: envOf(map[string]string{"SMITH_MODEL": "env/m", "SMITH_THINKING": "off"}),
			Flags:     map[string]string{"model": "flag/m", "max-output-tokens": "5", "base-url": "http://flag.test"}},
			model: "flag/m @ flag --model", think: "off @ env SMITH_THINKING", max: "5 @ flag --max-output-tokens",
			base: "http://project.test @ " + filepath.Join(root, ProjectFile) + ":4:14"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got := func(v any, s Source) string { return strings.TrimSpace(fmt.Sprint(v) + " @ " + s.String()) }
			if g := got(cfg.Model.Value, cfg.Model.Source); g != strings.TrimSpace(tt.model) {
				t.Errorf("model %q, want %q", g, tt.model)
			}
			if g := got(string(cfg.Thinking.Value), cfg.Thinking.Source); g != strings.TrimSpace(tt.think) {
				t.Errorf("thinking %q, want %q", g, tt.think)
			}
			if g := got(cfg.MaxOutputTokens.Value, cfg.MaxOutputTokens.Source); g != tt.max {
				t.Errorf("max-output-tokens %q, want %q", g, tt.max)
			}
			if tt.base != "" {
				b := cfg.Provider("anthropic").BaseURL
				if g := got(b.Value, b.Source); g != strings.TrimSpace(tt.base) {
					t.Errorf("base-url %q, want %q", g, tt.base)
				}
			}
			if a, ok := cfg.Aliases["fast"]; ok || tt.alias != "" {
				if g := got(a.Value, a.Source); g != tt.alias {
					t.Errorf("alias fast %q, want %q", g, tt.alias)
				}
			}
			if f, ok := tt.in.Flags["base-url"]; ok && (cfg.BaseURLFlag.Value != f || cfg.BaseURLFlag.Source.String() != "flag --base-url") {
				t.Errorf("base-url flag %+v", cfg.BaseURLFlag)
			}
		})
	}
	// ignore patterns add up across layers, each with its source.
	iroot, isub := project(t, "ignore \"dist/\"\n")
	iuser := writeUser(t, "ignore \"*.log\" \"tmp/\"\ntrusted-project \""+iroot+"\"\n")
	icfg, err := Load(Inputs{UserFile: iuser, ProjectDir: isub, LookupEnv: noEnv,
		Plugins: []Contribution{{Plugin: "base", Defaults: true, Text: []byte("ignore \"node_modules/\"\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	var ig []string
	for _, p := range icfg.Ignore {
		ig = append(ig, p.Value+" @ "+p.Source.String())
	}
	want := []string{"node_modules/ @ plugin-default base", "*.log @ " + iuser + ":1:8", "tmp/ @ " + iuser + ":1:16",
		"dist/ @ " + filepath.Join(iroot, ProjectFile) + ":1:8"}
	if strings.Join(ig, "|") != strings.Join(want, "|") {
		t.Errorf("ignore = %q\nwant %q", ig, want)
	}
	if got := strings.Join(icfg.IgnorePatterns(), " "); got != "node_modules/ *.log tmp/ dist/" {
		t.Errorf("IgnorePatterns = %s", got)
	}

	// The project's file adds to the user's provider block: the credential
	// set in the user's file stays.
	cfg, err := Load(Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Provider("anthropic").Credentials[""]; c.Env != "USER_KEY" {
		t.Errorf("credential %+v, want the user's", c)
	}
}

// TestProjectTrust: a project's file is read only when trusted (by the
// user's file, through a symlinked path too, or for one run by the flag or
// the environment); otherwise it is reported, not read. A project cannot
// trust itself.
func TestProjectTrust(t *testing.T) {
	root, sub := project(t, "model \"project/m\"\n")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		user    string
		env     map[string]string
		flags   map[string]string
		dir     string
		read    bool
		because string
	}{
		{name: "untrusted", dir: sub, read: false},
		{name: "trusted by the user's file", user: `trusted-project "` + root + `"`, dir: sub, read: true, because: "trusted by "},
		{name: "trusted through a symlink", user: `trusted-project "` + link + `"`, dir: sub, read: true, because: "trusted by "},
		{name: "another project trusted", user: `trusted-project "` + t.TempDir() + `"`, dir: sub, read: false},
		{name: "one run by the flag", flags: map[string]string{"trust-project": "true"}, dir: sub, read: true, because: "flag --trust-project"},
		{name: "one run by the environment", env: map[string]string{"SMITH_TRUST_PROJECT": "1"}, dir: sub, read: true, because: "env SMITH_TRUST_PROJECT"},
		{name: "flag false beats the environment", env: map[string]string{"SMITH_TRUST_PROJECT": "1"}, flags: map[string]string{"trust-project": "false"}, dir: sub, read: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Inputs{ProjectDir: tt.dir, LookupEnv: envOf(tt.env), Flags: tt.flags}
			if tt.user != "" {
				in.UserFile = writeUser(t, tt.user)
			}
			cfg, err := Load(in)
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Model.Value == "project/m"; got != tt.read {
				t.Fatalf("project read: %v, want %v (notes %q)", got, tt.read, cfg.Notes)
			}
			notes := strings.Join(cfg.Notes, "\n")
			last := cfg.Files[len(cfg.Files)-1]
			if tt.read {
				if notes != "" || last.State != FileLoaded || !strings.Contains(last.Trust, tt.because) {
					t.Errorf("notes %q, files %+v: want no note and the file loaded %s", notes, cfg.Files, tt.because)
				}
			} else if !strings.Contains(notes, "is not trusted") || !strings.Contains(notes, filepath.Join(root, ProjectFile)) || last.State != FileUntrusted {
				t.Errorf("notes %q, files %+v: want the untrusted file named", notes, cfg.Files)
			}
			if last.Layer != LayerProject {
				t.Errorf("files %+v", cfg.Files)
			}
		})
	}
	// A project's file cannot name credentials.
	_, sub3 := project(t, "provider \"anthropic\" {\n  credential env=\"AWS_SECRET_ACCESS_KEY\"\n}\n")
	_, err := Load(Inputs{ProjectDir: sub3, LookupEnv: noEnv, Flags: map[string]string{"trust-project": "1"}})
	if err == nil || !strings.Contains(err.Error(), ":2:3: provider.anthropic.credential: is read only from your own smith.kdl") {
		t.Errorf("project credential: %v", err)
	}
	// A project's file cannot trust a project.
	root2, sub2 := project(t, `trusted-project "/anything"`)
	_, err = Load(Inputs{ProjectDir: sub2, LookupEnv: noEnv, Flags: map[string]string{"trust-project": "1"}})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root2, ProjectFile)+":1:1: trusted-project:") || !strings.Contains(err.Error(), "only from your own smith.kdl") {
		t.Errorf("error %v", err)
	}
}

// TestEnvAndFlagErrors: an invalid environment variable or flag names
// itself, the value and an example.
func TestEnvAndFlagErrors(t *testing.T) {
	tests := []struct {
		name  string
		env   map[string]string
		flags map[string]string
		want  string
	}{
		{name: "env tokens", env: map[string]string{"SMITH_MAX_OUTPUT_TOKENS": "lots"},
			want: `config: env SMITH_MAX_OUTPUT_TOKENS: max-output-tokens: "lots" is not a whole number of tokens from 1 to 10000000; for example: SMITH_MAX_OUTPUT_TOKENS=8192`},
		{name: "env thinking", env: map[string]string{"SMITH_THINKING": "max"},
			want: `config: env SMITH_THINKING: thinking: "max" is not a thinking level`},
		{name: "flag base URL", flags: map[string]string{"base-url": "localhost:8000"},
			want: `config: flag --base-url: base-url: "localhost:8000" is not an http:// or https:// URL; for example: --base-url http://localhost:8000/v1`},
		{name: "flag trust", flags: map[string]string{"trust-project": "maybe"},
			want: `config: flag --trust-project: trust-project: "maybe" is not a boolean`},
		{name: "empty prompt file flag", flags: map[string]string{"system-prompt-file": " "}, want: `config: flag --system-prompt-file: system-prompt-file: " " is empty`},
		{name: "env idle timeout", env: map[string]string{"SMITH_IDLE_TIMEOUT": "forever"},
			want: `config: env SMITH_IDLE_TIMEOUT: idle-timeout: "forever" is not a duration: write it as "90s", "2m" or "1h30m", or as a number of seconds; for example: SMITH_IDLE_TIMEOUT=2m`},
		{name: "flag head timeout", flags: map[string]string{"head-timeout": "0"}, want: `config: flag --head-timeout: head-timeout: "0" is outside 1s to 24h0m0s`},
		{name: "unknown flag", flags: map[string]string{"colour": "x"}, want: `config: flag --colour: is not a configuration flag`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(Inputs{LookupEnv: envOf(tt.env), Flags: tt.flags})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestFileErrors: unreadable inputs fail naming the file; a missing user
// file is an empty layer.
func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	cfg, err := Load(Inputs{UserFile: filepath.Join(dir, "absent.kdl"), LookupEnv: noEnv})
	if err != nil || cfg.Files[0].State != FileAbsent {
		t.Fatalf("absent file: %v %+v", err, cfg)
	}
	if _, err := Load(Inputs{UserFile: dir, LookupEnv: noEnv}); err == nil || !strings.Contains(err.Error(), dir+" is not a regular file") {
		t.Errorf("directory: %v", err)
	}
	big := filepath.Join(dir, "big.kdl")
	if err := os.WriteFile(big, []byte(strings.Repeat("// padding\n", maxFile/10)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Inputs{UserFile: big, LookupEnv: noEnv}); err == nil || !strings.Contains(err.Error(), "larger than 1048576 bytes") {
		t.Errorf("big: %v", err)
	}
}

func TestOptionsDeclareEachOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range Options() {
		for _, n := range []string{"flag " + o.Flag, "env " + o.Env, "key " + o.Key} {
			if strings.HasSuffix(n, " ") {
				continue
			}
			if seen[n] {
				t.Errorf("%s is declared twice", n)
			}
			seen[n] = true
		}
		if o.Flag == "" || o.Example == "" || o.Usage == "" {
			t.Errorf("option %+v lacks a flag, an example or a usage", o)
		}
	}
}

// TestLiteralKeyReadableByOthers: a file holding a literal key that
// others may read is loaded with a note saying how to fix it; a private
// one, or one naming a variable, is not.
func TestLiteralKeyReadableByOthers(t *testing.T) {
	tests := []struct {
		name string
		text string
		mode os.FileMode
		note bool
	}{
		{name: "literal, world-readable", text: `provider "a" { credential key="sk-x"; }`, mode: 0o644, note: true},
		{name: "literal, group-readable", text: `provider "a" { credential key="sk-x"; }`, mode: 0o640, note: true},
		{name: "literal, private", text: `provider "a" { credential key="sk-x"; }`, mode: 0o600},
		{name: "variable, world-readable", text: `provider "a" { credential env="K"; }`, mode: 0o644},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeUser(t, tt.text)
			if err := os.Chmod(path, tt.mode); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(Inputs{UserFile: path, LookupEnv: noEnv})
			if err != nil {
				t.Fatal(err)
			}
			notes := strings.Join(cfg.Notes, "\n")
			if got := strings.Contains(notes, "chmod 600 "+path); got != tt.note {
				t.Errorf("notes %q: want a chmod note %v", notes, tt.note)
			}
			if strings.Contains(notes, "sk-x") {
				t.Error("a note reveals the key")
			}
		})
	}
}

// TestSystemPrompt: smith.kdl gives the prompt's text or a file relative
// to itself; the flag and the variable give a file relative to the working
// directory, and beat the file.
func TestSystemPrompt(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		text  string
		env   map[string]string
		flags map[string]string
		want  Prompt
		layer Layer
	}{
		{name: "inline text", text: "system-prompt \"Review only.\"\n", want: Prompt{Text: "Review only."}, layer: LayerUser},
		{name: "file beside the config", text: "system-prompt file=\"prompts/s.md\"\n", want: Prompt{File: filepath.Join(dir, "prompts", "s.md")}, layer: LayerUser},
		{name: "variable beats the file", text: "system-prompt \"x\"\n", env: map[string]string{"SMITH_SYSTEM_PROMPT_FILE": "/abs/p.md"},
			want: Prompt{File: "/abs/p.md"}, layer: LayerEnv},
		{name: "flag beats the variable", env: map[string]string{"SMITH_SYSTEM_PROMPT_FILE": "/abs/p.md"}, flags: map[string]string{"system-prompt-file": "/abs/q.md"},
			want: Prompt{File: "/abs/q.md"}, layer: LayerFlag},
		{name: "unset", want: Prompt{}, layer: LayerDefault},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user := filepath.Join(dir, FileName)
			if err := os.WriteFile(user, []byte(tt.text), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(Inputs{UserFile: user, LookupEnv: envOf(tt.env), Flags: tt.flags})
			if err != nil {
				t.Fatal(err)
			}
			if cfg.SystemPrompt.Value != tt.want || cfg.SystemPrompt.Source.Layer != tt.layer {
				t.Fatalf("SystemPrompt = %+v from %v; want %+v from %v", cfg.SystemPrompt.Value, cfg.SystemPrompt.Source, tt.want, tt.layer)
			}
		})
	}
}
