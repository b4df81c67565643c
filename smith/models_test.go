package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestModelsCommand(t *testing.T) {
	e := newEnv(t)
	table := e.mustRun("", "models").stdout
	for _, want := range []string{"catalog 2026-", "MODEL", "CACHE-WR", "anthropic/claude-sonnet-4-5-20250929", "openai/gpt-5 ", "google/gemini-2.5-pro", " ?  bundled\n", "FROM"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	var l struct {
		Generated string
		Origins   []struct{ Source, Date string }
		Models    []struct {
			Provider, ID string
			Context      int `json:"context"`
			Price        *struct{ Input, Output float64 }
			Provenance   struct {
				Source, Date string
				Verified     bool
			}
		}
	}
	out := e.mustRun("", "models", "--output", "json", "--provider", "google").stdout
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if len(l.Origins) == 0 || l.Origins[0].Source == "" || l.Generated == "" {
		t.Errorf("file provenance missing: %+v", l.Origins)
	}
	if len(l.Models) < 3 {
		t.Fatalf("%d google models", len(l.Models))
	}
	for _, m := range l.Models {
		if m.Provider != "google" || m.Price == nil || m.Context == 0 || m.Provenance.Source == "" || m.Provenance.Date == "" {
			t.Errorf("entry incomplete: %+v", m)
		}
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "bad format", args: []string{"models", "--output", "yaml"}, want: `--output "yaml" is not a format`},
		{name: "unknown provider", args: []string{"models", "--provider", "nope"}, want: `--provider "nope" has no models in the catalog; known providers: anthropic, deepseek, google, openai`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.run("", tt.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
}

// TestModelsRoutes: smith models lists the aliases and groups of smith.kdl
// with the targets each resolves to (no network), or why one does not
// resolve.
func TestModelsRoutes(t *testing.T) {
	e := newEnv(t)
	p := e.writeConfig(`alias "fast" "claude-haiku-4-5"
group "steady" "fast" "openai/gpt-5"
alias "typo" "claude-haiku-9"
provider "anthropic" {
    accounts "work" "home"
}
`)
	out := strings.ReplaceAll(e.mustRun("", "models").stdout, p, "FILE")
	for _, want := range []string{
		"alias fast → anthropic@work/claude-haiku-4-5-20251001, anthropic@home/claude-haiku-4-5-20251001 (FILE:1:1)",
		"group steady → anthropic@work/claude-haiku-4-5-20251001, anthropic@home/claude-haiku-4-5-20251001, openai/gpt-5 (FILE:2:1)",
		`alias typo: route: no alias, group or model named "claude-haiku-9" (via typo)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("models lacks %q:\n%s", want, out)
		}
	}
	var l struct {
		Routes []struct {
			Name, Kind, Source, Error string
			Targets                   []string
		}
	}
	if err := json.Unmarshal([]byte(e.mustRun("", "models", "--output", "json").stdout), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Routes) != 3 || l.Routes[1].Name != "typo" || l.Routes[1].Error == "" || l.Routes[2].Name != "steady" || len(l.Routes[2].Targets) != 3 {
		t.Errorf("routes %+v", l.Routes)
	}
}

// TestModelsClosedPipe: smith models | head exits quietly when the reader
// goes away: no "broken pipe" message, exit 0.
func TestModelsClosedPipe(t *testing.T) {
	e := newEnv(t)
	cmd := e.command("", "models")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The reader goes away before smith writes (head has read its lines
	// and exited), so every write fails with EPIPE.
	_ = out.Close()
	err = cmd.Wait()
	if err != nil || stderr.String() != "" {
		t.Fatalf("exit %v, stderr %q; want a quiet exit 0", err, stderr.String())
	}
}
