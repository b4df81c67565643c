package config

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLoad measures what every smith start pays for its
// configuration: reading and checking a typical user smith.kdl, a trusted
// project's file, the environment and two flags.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	user := filepath.Join(dir, FileName)
	root := filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(root, ".smith"), 0o755); err != nil {
		b.Fatal(err)
	}
	text := `model "steady"
thinking "medium"
max-output-tokens 16000
provider "anthropic" {
    base-url "https://gateway.example/anthropic"
    accounts "work" "home"
    credential account="work" env="WORK_ANTHROPIC_KEY"
    credential account="home" env="HOME_ANTHROPIC_KEY"
}
provider "local" {
    api "openai-compatible"
    base-url "http://127.0.0.1:8000/v1"
    quirks { max-tokens-field "max_tokens"; no-stream-usage #true; }
}
alias "fast" "anthropic/claude-haiku-4-5"
group "steady" "anthropic/claude-sonnet-4-5" "local/qwen3"
trusted-project "` + root + `"
`
	if err := os.WriteFile(user, []byte(text), 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte("thinking \"high\"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	in := Inputs{UserFile: user, ProjectDir: root, LookupEnv: noEnv, Flags: map[string]string{"model": "fast", "max-output-tokens": "8000"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(in); err != nil {
			b.Fatal(err)
		}
	}
}
