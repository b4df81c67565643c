package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxSettings: the sandbox mode, the network switch and the roots
// are read from every layer, roots add up and resolve against the file's
// directory, and the defaults are workspace-write with the network.
func TestSandboxSettings(t *testing.T) {
	user := writeUser(t, "sandbox \"read-only\"\nsandbox-network \"deny\"\nroots \"shared\"\n")
	shared := filepath.Join(filepath.Dir(user), "shared")
	extra := t.TempDir()
	if err := os.Mkdir(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		in      Inputs
		mode    string
		network bool
		roots   []string
	}{
		{name: "defaults", in: Inputs{LookupEnv: noEnv}, mode: "workspace-write", network: true},
		{name: "file", in: Inputs{UserFile: user, LookupEnv: noEnv}, mode: "read-only", roots: []string{shared}},
		{name: "env over file", in: Inputs{UserFile: user, LookupEnv: envOf(map[string]string{"SMITH_SANDBOX": "off", "SMITH_SANDBOX_NETWORK": "allow"})},
			mode: "off", network: true, roots: []string{shared}},
		{name: "flags add roots", in: Inputs{UserFile: user, LookupEnv: noEnv, Flags: map[string]string{"sandbox": "Workspace-Write", "add-dir": extra + string(os.PathListSeparator) + shared}},
			mode: "workspace-write", roots: []string{shared, extra}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.SandboxMode() != tt.mode || cfg.NetworkAllowed() != tt.network || strings.Join(cfg.RootPaths(), ",") != strings.Join(tt.roots, ",") {
				t.Fatalf("sandbox %q network %v roots %v; want %q %v %v", cfg.SandboxMode(), cfg.NetworkAllowed(), cfg.RootPaths(), tt.mode, tt.network, tt.roots)
			}
		})
	}
}

// TestSandboxErrors: a bad mode, network value or root names the value,
// where it came from, and a valid form.
func TestSandboxErrors(t *testing.T) {
	tests := []loadErrorCase{
		{name: "file mode", in: func(t *testing.T) Inputs {
			return Inputs{UserFile: writeUser(t, "sandbox \"strict\"\n"), LookupEnv: noEnv}
		}, want: []string{":1:9: sandbox: \"strict\" is not a sandbox mode", `sandbox "workspace-write"`}},
		{name: "file network", in: func(t *testing.T) Inputs {
			return Inputs{UserFile: writeUser(t, "sandbox-network 3\n"), LookupEnv: noEnv}
		}, want: []string{"sandbox-network: 3 is not \"allow\" or \"deny\""}},
		{name: "missing root", in: func(t *testing.T) Inputs {
			return Inputs{UserFile: writeUser(t, "roots \"nowhere\"\n"), LookupEnv: noEnv}
		}, want: []string{"roots: \"nowhere\" is not a directory Smith can read", "nowhere is missing"}},
		{name: "env mode", in: func(t *testing.T) Inputs {
			return Inputs{LookupEnv: envOf(map[string]string{"SMITH_SANDBOX": "maybe"})}
		}, want: []string{"SMITH_SANDBOX", `"maybe" is not a sandbox mode`, "SMITH_SANDBOX=read-only"}},
		{name: "flag root", in: func(t *testing.T) Inputs {
			return Inputs{LookupEnv: noEnv, Flags: map[string]string{"add-dir": "/no/such/dir"}}
		}, want: []string{"--add-dir", "/no/such/dir", "is not a directory"}},
	}
	checkLoadErrors(t, tests)
}

// TestProjectCannotLoosenSandbox: a trusted project's smith.kdl may
// tighten the sandbox but not loosen it, nor add roots outside the
// project; each refusal is a note naming the file and the fix.
func TestProjectCannotLoosenSandbox(t *testing.T) {
	outside := t.TempDir()
	root, sub := project(t, "sandbox \"off\"\nsandbox-network \"allow\"\nroots \""+outside+"\" \"../src\"\n")
	user := writeUser(t, "sandbox-network \"deny\"\n")
	cfg, err := Load(Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv, Flags: map[string]string{"trust-project": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.SandboxMode() != "workspace-write" || cfg.NetworkAllowed() {
		t.Errorf("the project loosened the sandbox: %q, network %v", cfg.SandboxMode(), cfg.NetworkAllowed())
	}
	if got := cfg.RootPaths(); len(got) != 1 || got[0] != filepath.Join(root, "src") {
		t.Errorf("roots %v, want only %s", got, filepath.Join(root, "src"))
	}
	notes := strings.Join(cfg.Notes, "\n")
	for _, w := range []string{`ignored sandbox "off"`, "--sandbox off", `ignored sandbox-network "allow"`, "ignored root " + outside, "--add-dir " + outside} {
		if !strings.Contains(notes, w) {
			t.Errorf("the notes lack %q:\n%s", w, notes)
		}
	}

	tight, sub2 := project(t, "sandbox \"read-only\"\nsandbox-network \"deny\"\n")
	_ = tight
	cfg, err = Load(Inputs{ProjectDir: sub2, LookupEnv: noEnv, Flags: map[string]string{"trust-project": "true"}})
	if err != nil || cfg.SandboxMode() != "read-only" || cfg.NetworkAllowed() {
		t.Fatalf("a project that tightens: %v, %q, network %v", err, cfg.SandboxMode(), cfg.NetworkAllowed())
	}
}

// loadErrorCase is a configuration Load must refuse: in makes its inputs,
// and want are substrings of the error (the value, where it came from, a
// valid form).
type loadErrorCase struct {
	name string
	in   func(t *testing.T) Inputs
	want []string
}

// checkLoadErrors requires Load to refuse each case with an error holding
// every wanted substring.
func checkLoadErrors(t *testing.T, tests []loadErrorCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.in(t))
			if err == nil {
				t.Fatal("loaded without an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}
