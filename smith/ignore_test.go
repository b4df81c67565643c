package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfiguredIgnores: ignore patterns from the user's smith.kdl and the
// trusted project's are added to .gitignore's for find, grep and ls, and
// `smith config show` lists each with its source.
func TestConfiguredIgnores(t *testing.T) {
	e := newEnv(t)
	for name, body := range map[string]string{
		"main.go":          "package main // TODO: ship\n",
		"debug.log":        "TODO: user-ignored\n",
		"dist/bundle.js":   "// TODO: project-ignored\n",
		"vendor/x/x.go":    "// TODO: gitignored\n",
		".gitignore":       "vendor/\n",
		"notes/readme.txt": "TODO: kept\n",
	} {
		p := filepath.Join(e.cwd, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	user := e.writeConfig("ignore \"*.log\"\n")
	project := e.writeProjectConfig("ignore \"dist/\"\n")
	script := e.script("search.json", `{"mock_script":1,"responses":[
		{"tool_calls":[{"id":"call_find","name":"find","arguments":{"pattern":"**/*"}},
		               {"id":"call_grep","name":"grep","arguments":{"pattern":"TODO","literal":true}}]},
		{"text":"Found them."}]}`)
	r := e.mustRun("", "eval", "--model", script, "--no-session", "--trust-project", "--output", "json", "Find the TODOs.")
	for _, want := range []string{`main.go`, `notes/readme.txt`, `main.go:1: package main // TODO: ship`, `notes/readme.txt:1: TODO: kept`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, hidden := range []string{"debug.log", "bundle.js", "vendor/x"} {
		if strings.Contains(r.stdout, hidden) {
			t.Errorf("output shows %q, which an ignore pattern excludes:\n%s", hidden, r.stdout)
		}
	}
	show := e.mustRun("", "config", "show", "--trust-project")
	for _, want := range []string{"ignore", "*.log", user + ":1:8", "dist/", project + ":1:8"} {
		if !strings.Contains(show.stdout, want) {
			t.Errorf("config show lacks %q:\n%s", want, show.stdout)
		}
	}
}
