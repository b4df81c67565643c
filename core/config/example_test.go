package config_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/smith-agent/smith/core/config"
)

func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "smith-config-example-")
	defer func() { _ = os.RemoveAll(dir) }()
	path := filepath.Join(dir, "smith.kdl")
	_ = os.WriteFile(path, []byte(`model "steady"
provider "local" {
    api "openai-compatible"
    base-url "http://127.0.0.1:8000/v1"
    quirks { max-tokens-field "max_tokens"; no-stream-usage #true }
}
group "steady" "anthropic/claude-sonnet-4-5" "local/qwen3"
`), 0o600)
	env := func(name string) (string, bool) {
		if name == "SMITH_THINKING" {
			return "low", true
		}
		return "", false
	}
	cfg, err := config.Load(config.Inputs{UserFile: path, LookupEnv: env, Flags: map[string]string{"max-output-tokens": "8000"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Model.Value, cfg.Thinking.Value, cfg.Thinking.Source, cfg.MaxOutputTokens.Value, cfg.MaxOutputTokens.Source)
	fmt.Println(cfg.Route().Groups["steady"], cfg.Provider("local").Codec(), string(cfg.Provider("local").QuirksJSON()))
	// Output:
	// steady low env SMITH_THINKING 8000 flag --max-output-tokens
	// [anthropic/claude-sonnet-4-5 local/qwen3] openai-compatible {"max_tokens_field":"max_tokens","no_stream_usage":true}
}
