package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestModelsCommand(t *testing.T) {
	e := newEnv(t)
	table := e.mustRun("", "models").stdout
	for _, want := range []string{"catalog 2026-", "MODEL", "CACHE-WR", "anthropic/claude-sonnet-4-5-20250929", "openai/gpt-5 ", "google/gemini-2.5-pro", " ?\n"} {
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
