package config

import (
	"strings"
	"testing"
	"time"
)

// TestPluginBudgets: a plugin block sets its plugin's budgets with their
// locations, smith config show lists them, and a trusted project may
// tighten them but not loosen them (each refusal a note).
func TestPluginBudgets(t *testing.T) {
	user := writeUser(t, "plugin \"shout\" {\n    timeout \"2m\"\n    fuel 10000000000\n    memory \"64MiB\"\n    output \"256KiB\"\n}\n")
	_, sub := project(t, "plugin \"shout\" {\n    timeout \"10m\"\n    memory \"32MiB\"\n    log \"16KiB\"\n}\nplugin \"other\" {\n    fuel 99999999999\n    timeout \"5s\"\n    output \"1MiB\"\n}\n")
	cfg, err := Load(Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv, Flags: map[string]string{"trust-project": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.PluginBudgets["shout"]
	if s == nil || s.Timeout.Value != 2*time.Minute || s.Fuel.Value != 10000000000 || s.Memory.Value != 32<<20 || s.Output.Value != 256<<10 || s.Log.Value != 16<<10 {
		t.Fatalf("shout's budgets %+v", s)
	}
	if !strings.HasSuffix(s.Timeout.Source.String(), ":2:13") || s.Memory.Source.Layer != LayerProject {
		t.Errorf("sources: timeout %s, memory %s", s.Timeout.Source, s.Memory.Source)
	}
	if o := cfg.PluginBudgets["other"]; o == nil || o.Fuel.IsSet() || o.Output.IsSet() || o.Timeout.Value != 5*time.Second {
		t.Fatalf("other's budgets %+v", o)
	}
	notes := strings.Join(cfg.Notes, "\n")
	for _, w := range []string{`ignored plugin "shout" timeout`, "(2m0s is in force)", `ignored plugin "other" fuel`, "(4294967296 is in force)",
		`ignored plugin "other" output`, "(64KiB is in force)"} {
		if !strings.Contains(notes, w) {
			t.Errorf("the notes lack %q:\n%s", w, notes)
		}
	}
	var shown []string
	for _, e := range cfg.Entries() {
		if strings.HasPrefix(e.Path, "plugin.") {
			shown = append(shown, e.Path+" "+e.Value)
		}
	}
	if got, want := strings.Join(shown, "\n"), "plugin.other.timeout 5s\nplugin.shout.timeout 2m0s\nplugin.shout.fuel 10000000000\nplugin.shout.memory 32MiB\nplugin.shout.output 256KiB\nplugin.shout.log 16KiB"; got != want {
		t.Errorf("config show lists\n%s\nwant\n%s", got, want)
	}
}

// TestPluginBudgetErrors: a bad name, budget or node names the value,
// its location and a valid form.
func TestPluginBudgetErrors(t *testing.T) {
	file := func(text string) func(t *testing.T) Inputs {
		return func(t *testing.T) Inputs { return Inputs{UserFile: writeUser(t, text), LookupEnv: noEnv} }
	}
	checkLoadErrors(t, []loadErrorCase{
		{name: "name", in: file("plugin \"Shout\" {}\n"), want: []string{":1:8", `"Shout" is not a plugin name`, "smith plugin list"}},
		{name: "no name", in: file("plugin {}\n"), want: []string{":1:1", "plugin", "needs one value"}},
		{name: "twice", in: file("plugin \"a\" {}\nplugin \"a\" {}\n"), want: []string{":2:1", "is set twice"}},
		{name: "unknown node", in: file("plugin \"a\" {\n    speed 3\n}\n"), want: []string{":2:5", "plugin.a.speed", "it holds timeout, fuel, memory, output, log"}},
		{name: "timeout", in: file("plugin \"a\" {\n    timeout \"2h\"\n}\n"), want: []string{":2:13", `"2h" is outside 1s to 1h0m0s`, `timeout "2m"`}},
		{name: "timeout form", in: file("plugin \"a\" {\n    timeout \"soon\"\n}\n"), want: []string{`"soon" is not a duration`}},
		{name: "fuel", in: file("plugin \"a\" {\n    fuel 1.5\n}\n"), want: []string{":2:10", "1.5 is not a whole number of fuel units", "fuel 10000000000"}},
		{name: "memory", in: file("plugin \"a\" {\n    memory \"100KiB\"\n}\n"), want: []string{":2:12", `"100KiB" is not a memory size`, `memory "64MiB"`}},
		{name: "output", in: file("plugin \"a\" {\n    output \"2MiB\"\n}\n"), want: []string{":2:12", `"2MiB" is not a size from 1KiB to 1MiB`, `output "256KiB"`}},
		{name: "log form", in: file("plugin \"a\" {\n    log 100\n}\n"), want: []string{":2:9", "100 is not a size", `log "16KiB"`}},
		{name: "memory above", in: file("plugin \"a\" {\n    memory \"1GiB\"\n}\n"), want: []string{`"1GiB" is not a memory size from 1MiB to 256MiB`}},
	})
}
