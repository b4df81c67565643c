package config

import (
	"strings"
	"testing"
)

// rulesOf writes the rules as smith.kdl spells them, one per line.
func rulesOf(c *Config) string {
	var out []string
	for _, r := range c.Permissions.Rules {
		out = append(out, r.String())
	}
	return strings.Join(out, "\n")
}

// TestPermissionSettings: the mode comes from the file, the environment
// or the flag (the default is auto), --yes from the environment or the
// flag, and the rules from the file, in order, with their locations.
func TestPermissionSettings(t *testing.T) {
	user := writeUser(t, "permissions {\n    mode \"ask\"\n    allow \"bash\" \"git status*\" \"go test*\"\n    deny \"write\" \"*.env\"\n    deny \"*\"\n}\n")
	tests := []struct {
		name  string
		in    Inputs
		mode  string
		yes   bool
		rules string
	}{
		{name: "defaults", in: Inputs{LookupEnv: noEnv}, mode: "auto"},
		{name: "file", in: Inputs{UserFile: user, LookupEnv: noEnv}, mode: "ask",
			rules: "allow \"bash\" \"git status*\" \"go test*\"\ndeny \"write\" \"*.env\"\ndeny \"*\""},
		{name: "env over file", in: Inputs{UserFile: user, LookupEnv: envOf(map[string]string{"SMITH_PERMISSION_MODE": "Read-Only", "SMITH_YES": "1"})},
			mode: "read-only", yes: true, rules: "allow \"bash\" \"git status*\" \"go test*\"\ndeny \"write\" \"*.env\"\ndeny \"*\""},
		{name: "flags", in: Inputs{LookupEnv: noEnv, Flags: map[string]string{"permission-mode": "ask", "yes": "true"}}, mode: "ask", yes: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.PermissionMode() != tt.mode || cfg.Permissions.Yes.Value != tt.yes || rulesOf(cfg) != tt.rules {
				t.Fatalf("mode %q yes %v rules\n%s\nwant %q %v\n%s", cfg.PermissionMode(), cfg.Permissions.Yes.Value, rulesOf(cfg), tt.mode, tt.yes, tt.rules)
			}
		})
	}
	cfg, err := Load(Inputs{UserFile: user, LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if src := cfg.Permissions.Rules[1].Source.String(); !strings.HasSuffix(src, ":4:5") {
		t.Errorf("the deny rule's source is %q, want its line and column", src)
	}
	var shown []string
	for _, e := range cfg.Entries() {
		if strings.HasPrefix(e.Path, "permissions.") {
			shown = append(shown, e.Path+" "+e.Value)
		}
	}
	if got, want := strings.Join(shown, "\n"), "permissions.mode ask\npermissions.allow \"bash\" \"git status*\" \"go test*\"\npermissions.deny \"write\" \"*.env\"\npermissions.deny \"*\""; got != want {
		t.Errorf("config show lists\n%s\nwant\n%s", got, want)
	}
}

// TestPermissionErrors: a bad mode, an unknown node, an empty tool or
// pattern name the value, where it came from, and a valid form.
func TestPermissionErrors(t *testing.T) {
	tests := []loadErrorCase{
		{name: "file mode", in: func(t *testing.T) Inputs {
			return Inputs{UserFile: writeUser(t, "permissions {\n    mode \"never\"\n}\n"), LookupEnv: noEnv}
		}, want: []string{":2:10: permissions.mode: \"never\" is not a permission mode", `permissions { mode "ask"; }`}},
		{name: "unknown node", in: func(t *testing.T) Inputs {
			return Inputs{UserFile: writeUser(t, "permissions {\n    alow \"bash\"\n}\n"), LookupEnv: noEnv}
		}, want: []string{"permissions.alow: is not part of the permissions block", "allow"}},
		{name: "no tool", in: func(t *testing.T) Inputs {
			return Inputs{UserFile: writeUser(t, "permissions {\n    deny\n}\n"), LookupEnv: noEnv}
		}, want: []string{"permissions.deny", `deny "bash" "git status*"`}},
		{name: "empty pattern", in: func(t *testing.T) Inputs {
			return Inputs{UserFile: writeUser(t, "permissions {\n    deny \"write\" \"\"\n}\n"), LookupEnv: noEnv}
		}, want: []string{"permissions.deny: \"\" is empty; give a pattern"}},
		{name: "env mode", in: func(t *testing.T) Inputs {
			return Inputs{LookupEnv: envOf(map[string]string{"SMITH_PERMISSION_MODE": "strict"})}
		}, want: []string{"SMITH_PERMISSION_MODE", `"strict" is not a permission mode`, "SMITH_PERMISSION_MODE=ask"}},
		{name: "flag yes", in: func(t *testing.T) Inputs {
			return Inputs{LookupEnv: noEnv, Flags: map[string]string{"yes": "sure"}}
		}, want: []string{"--yes", `"sure" is not a boolean`}},
	}
	checkLoadErrors(t, tests)
}

// TestProjectCannotAllowCalls: a trusted project's permissions may add
// deny rules and tighten the mode, never allow a call or loosen the mode;
// each refusal is a note naming the file and the fix.
func TestProjectCannotAllowCalls(t *testing.T) {
	_, sub := project(t, "permissions {\n    mode \"auto\"\n    allow \"bash\"\n    deny \"bash\" \"rm *\"\n}\n")
	user := writeUser(t, "permissions {\n    mode \"ask\"\n}\n")
	cfg, err := Load(Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv, Flags: map[string]string{"trust-project": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.PermissionMode() != "ask" || rulesOf(cfg) != `deny "bash" "rm *"` {
		t.Errorf("the project loosened the policy: mode %q, rules\n%s", cfg.PermissionMode(), rulesOf(cfg))
	}
	notes := strings.Join(cfg.Notes, "\n")
	for _, w := range []string{`ignored permissions mode "auto"`, "--permission-mode auto", `ignored allow "bash" from the project's`, "your own smith.kdl"} {
		if !strings.Contains(notes, w) {
			t.Errorf("the notes lack %q:\n%s", w, notes)
		}
	}
	_, sub2 := project(t, "permissions {\n    mode \"read-only\"\n}\n")
	cfg, err = Load(Inputs{ProjectDir: sub2, LookupEnv: noEnv, Flags: map[string]string{"trust-project": "true"}})
	if err != nil || cfg.PermissionMode() != "read-only" {
		t.Fatalf("a project that tightens: %v, %q", err, cfg.PermissionMode())
	}
}
