package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretNodes: a secret node of the user's smith.kdl registers a
// secret read from a variable or from a file (a relative path resolves
// against the file's directory, ~/ against the home directory), with the
// node's file:line:col as its source, in file order.
func TestSecretNodes(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skipf("no home directory: %v", err)
	}
	tests := []struct {
		name string
		text string
		// want lists the secrets as NAME env=VAR or NAME file=PATH, with
		// DIR standing for the user file's directory and HOME for the home
		// directory.
		want []string
		// line and col locate the first secret's node.
		line, col int
	}{
		{name: "env", text: "secret \"GITHUB_TOKEN\" env=\"GH_TOKEN\"\n",
			want: []string{"GITHUB_TOKEN env=GH_TOKEN"}, line: 1, col: 1},
		{name: "relative file", text: "model \"a/b\"\n  secret \"db.pass-1\" file=\"keys/../keys/db\"\n",
			want: []string{"db.pass-1 file=DIR/keys/db"}, line: 2, col: 3},
		{name: "absolute file", text: "secret \"_abs\" file=\"/etc/../run/tok\"\n",
			want: []string{"_abs file=/run/tok"}, line: 1, col: 1},
		{name: "home file", text: "secret \"H\" file=\"~/.tok\"\n",
			want: []string{"H file=HOME/.tok"}, line: 1, col: 1},
		{name: "several in order", text: "secret \"B\" env=\"B_VAR\"\nsecret \"A\" file=\"a\"\n",
			want: []string{"B env=B_VAR", "A file=DIR/a"}, line: 1, col: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user := writeUser(t, tt.text)
			cfg, err := Load(Inputs{UserFile: user, LookupEnv: noEnv})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range cfg.Secrets {
				switch {
				case s.Env != "" && s.File == "":
					got = append(got, s.Name+" env="+s.Env)
				case s.File != "" && s.Env == "":
					got = append(got, s.Name+" file="+s.File)
				default:
					t.Fatalf("secret %+v has both or neither of Env and File", s)
				}
			}
			var want []string
			for _, w := range tt.want {
				w = strings.Replace(w, "DIR", filepath.Dir(user), 1)
				want = append(want, strings.Replace(w, "HOME", home, 1))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("secrets\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			src := cfg.Secrets[0].Source
			if src.Layer != LayerUser || src.File != user || src.Line != tt.line || src.Col != tt.col {
				t.Fatalf("source %+v; want %s:%d:%d in the user layer", src, user, tt.line, tt.col)
			}
		})
	}
}

// TestSecretNodeErrors: an invalid secret node fails naming
// file:line:col, the field path, the bad value and the fix; a project's
// smith.kdl (even a trusted one) and a plugin may not register a secret.
func TestSecretNodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   func(t *testing.T) (Inputs, string)
		want []string
	}{
		{name: "bad name", in: userInput("secret \"1bad\" env=\"X\"\n"),
			want: []string{":1:8: secret: \"1bad\" is not a secret name", "a letter or '_'", `for example: secret "GITHUB_TOKEN" env="GITHUB_TOKEN"`}},
		{name: "name not a string", in: userInput("secret 5 env=\"X\"\n"),
			want: []string{":1:8: secret: 5 is not a string"}},
		{name: "both env and file", in: userInput("secret \"T\" env=\"X\" file=\"f\"\n"),
			want: []string{":1:1: secret.T: needs exactly one of env= (a variable to read) and file= (a file holding the value)", `for example: secret "GITHUB_TOKEN"`}},
		{name: "neither", in: userInput("model \"a/b\"\nsecret \"T\"\n"),
			want: []string{":2:1: secret.T: needs exactly one of env= (a variable to read) and file="}},
		{name: "bad env var name", in: userInput("secret \"T\" env=\"MY-VAR\"\n"),
			want: []string{":1:16: secret.T.env: \"MY-VAR\" is not an environment variable name (letters, digits and '_')", `for example: secret "GITHUB_TOKEN" env="GITHUB_TOKEN"`}},
		{name: "empty env var name", in: userInput("secret \"T\" env=\"\"\n"),
			want: []string{":1:16: secret.T.env: \"\" is not an environment variable name"}},
		{name: "file not a string", in: userInput("secret \"T\" file=#true\n"),
			want: []string{":1:17: secret.T.file: #true is not a string"}},
		{name: "unknown property", in: userInput("secret \"T\" var=\"X\"\n"),
			want: []string{":1:12: secret: var= is not a property of secret, which takes the properties env, file"}},
		{name: "no name", in: userInput("secret env=\"X\"\n"),
			want: []string{":1:1: secret: needs one value, got 0"}},
		{name: "twice in one file", in: userInput("secret \"T\" env=\"A\"\nsecret \"T\" env=\"B\"\n"),
			want: []string{":2:1: secret.T: is set twice in this file (first at line 1); keep one"}},
		{name: "trusted project", in: func(t *testing.T) (Inputs, string) {
			root, sub := project(t, "model \"p/m\"\nsecret \"T\" env=\"HOME\"\n")
			return Inputs{ProjectDir: sub, LookupEnv: noEnv, Flags: map[string]string{"trust-project": "true"}}, "config: " + filepath.Join(root, ProjectFile)
		}, want: []string{":2:1: secret: is read only from your own smith.kdl, never from a project's or a plugin's", "move it there"}},
		{name: "plugin", in: func(t *testing.T) (Inputs, string) {
			return Inputs{LookupEnv: noEnv, Plugins: []Contribution{{Plugin: "acme", Text: []byte("secret \"T\" env=\"HOME\"\n")}}}, "plugin acme"
		}, want: []string{": secret: is read only from your own smith.kdl", "move it there"}},
		{name: "plugin defaults", in: func(t *testing.T) (Inputs, string) {
			return Inputs{LookupEnv: noEnv, Plugins: []Contribution{{Plugin: "acme", Defaults: true, Text: []byte("secret \"T\" file=\"/t\"\n")}}}, "plugin-default acme"
		}, want: []string{": secret: is read only from your own smith.kdl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, where := tt.in(t)
			cfg, err := Load(in)
			if err == nil {
				t.Fatalf("loaded without an error: secrets %+v", cfg.Secrets)
			}
			msg := err.Error()
			if !strings.Contains(msg, where+tt.want[0]) {
				t.Errorf("the error lacks %q:\n%s", where+tt.want[0], msg)
			}
			for _, w := range tt.want[1:] {
				if !strings.Contains(msg, w) {
					t.Errorf("the error lacks %q:\n%s", w, msg)
				}
			}
		})
	}
}

// userInput returns an input maker for a user smith.kdl holding text, and the
// file's path, which error messages start with.
func userInput(text string) func(t *testing.T) (Inputs, string) {
	return func(t *testing.T) (Inputs, string) {
		p := writeUser(t, text)
		return Inputs{UserFile: p, LookupEnv: noEnv}, "config: " + p
	}
}

// TestSecretNodeOnlyFromUser: with a valid secret in the user's file and
// none elsewhere, a trusted project and the environment leave the user's
// secrets as they are (merging does not drop or duplicate them).
func TestSecretNodeOnlyFromUser(t *testing.T) {
	_, sub := project(t, "model \"p/m\"\n")
	u := writeUser(t, "secret \"T\" env=\"TOKEN\"\n")
	cfg, err := Load(Inputs{UserFile: u, ProjectDir: sub, LookupEnv: envOf(map[string]string{"TOKEN": "abcdefgh12"}),
		Flags: map[string]string{"trust-project": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Secrets) != 1 || cfg.Secrets[0].Name != "T" || cfg.Secrets[0].Env != "TOKEN" {
		t.Fatalf("secrets %+v; want only T from TOKEN", cfg.Secrets)
	}
	if cfg.Model.Value != "p/m" {
		t.Fatalf("the project was not read: model %q", cfg.Model.Value)
	}
}

// TestValidSecretName: a name is 1 to 128 bytes, a letter or '_' then
// letters, digits, '_', '.' or '-'.
func TestValidSecretName(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{name: "upper and underscore", in: "GITHUB_TOKEN", want: true},
		{name: "leading underscore", in: "_x", want: true},
		{name: "dot and dash", in: "db.pass-1", want: true},
		{name: "one letter", in: "a", want: true},
		{name: "128 bytes", in: strings.Repeat("a", 128), want: true},
		{name: "129 bytes", in: strings.Repeat("a", 129)},
		{name: "empty", in: ""},
		{name: "leading digit", in: "1abc"},
		{name: "leading dash", in: "-a"},
		{name: "leading dot", in: ".a"},
		{name: "space", in: "a b"},
		{name: "dollar", in: "a$"},
		{name: "brace", in: "a}"},
		{name: "colon", in: "secret:a"},
		{name: "slash", in: "a/b"},
		{name: "non-ASCII", in: "tökén"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ValidSecretName(tt.in); got != tt.want {
				t.Fatalf("ValidSecretName(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}
