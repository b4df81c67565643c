package config

import (
	"strings"
	"testing"
)

// TestEntries: every configured value is listed with its source, and no
// entry shows a literal key or a URL password.
func TestEntries(t *testing.T) {
	path := writeUser(t, `model "fast"
provider "local" {
    api "openai-compatible"
    base-url "http://me:hunter2@127.0.0.1:8000/v1"
    credential key="sk-literal-SECRET"
    quirks { no-strict #true; }
}
provider "anthropic" {
    accounts "work"
    credential account="work" env="WORK_KEY"
}
alias "fast" "local/qwen"
group "both" "fast" "anthropic/claude-sonnet-4-5"
ignore "dist/" "*.log"
catalog-refresh "https://me:tok3n@catalog.example/c.json"
idle-timeout "90s"
`)
	cfg, err := Load(Inputs{UserFile: path, LookupEnv: envOf(map[string]string{"SMITH_THINKING": "low", "SMITH_RESPONSE_TIMEOUT": "45m"}),
		Flags: map[string]string{"base-url": "http://flag.test/v1", "head-timeout": "30"}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range cfg.Entries() {
		lines = append(lines, strings.ReplaceAll(e.Path+" = "+e.Value+" @ "+e.Source, path, "FILE"))
	}
	want := []string{
		"model = fast @ FILE:1:7",
		"thinking = low @ env SMITH_THINKING",
		"max-output-tokens = (the model's output limit) @ default",
		"max-cost = (none) @ default",
		"head-timeout = 30s @ flag --head-timeout",
		"idle-timeout = 1m30s @ FILE:16:14",
		"response-timeout = 45m0s @ env SMITH_RESPONSE_TIMEOUT",
		"ignore = dist/ @ FILE:14:8",
		"ignore = *.log @ FILE:14:16",
		"sandbox = workspace-write @ default",
		"sandbox-network = allow @ default",
		"permissions.mode = auto @ default",
		"trust-project = false @ default",
		"base-url = http://flag.test/v1 @ flag --base-url",
		"catalog-refresh = https://[redacted]@catalog.example/c.json @ FILE:15:17",
		"system-prompt = (the product plugin's) @ default",
		"provider.anthropic.accounts = work @ FILE:9:5",
		"provider.anthropic.credential@work = env WORK_KEY @ FILE:10:5",
		"provider.local.api = openai-compatible @ FILE:3:9",
		"provider.local.base-url = http://[redacted]@127.0.0.1:8000/v1 @ FILE:4:14",
		"provider.local.credential = key [redacted] @ FILE:5:5",
		`provider.local.quirks = {"no_strict":true} @ FILE:6:5`,
		"alias.fast = local/qwen @ FILE:12:1",
		"group.both = fast, anthropic/claude-sonnet-4-5 @ FILE:13:1",
	}
	if got := strings.Join(lines, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	for _, leak := range []string{"hunter2", "sk-literal-SECRET", "tok3n"} {
		if strings.Contains(strings.Join(lines, "\n"), leak) {
			t.Errorf("entries reveal %q", leak)
		}
	}
}

// chatOptions are options as a Chat Completions codec declares them.
var chatOptions = []OptionSpec{
	{Name: "max-tokens-field", Kind: OptionText, Allowed: []string{"max_completion_tokens", "max_tokens"}, Example: `"max_tokens"`, Description: "names the output-limit field"},
	{Name: "no-stream-usage", Kind: OptionFlag, Example: "#true", Description: "omits stream_options.include_usage"},
	{Name: "no-strict", Kind: OptionFlag, Example: "#true", Description: "omits strict"},
	{Name: "max-tool-call-id-len", Kind: OptionCount, Example: "40", Description: "bounds tool-call ids"},
	{Name: "label", Kind: OptionText, Example: `"x"`, Description: "any text"},
}

// TestCheckProviders: a provider block must name a declared provider or
// give the api of one, and its quirks must be options its codec declares,
// with values of their kind.
func TestCheckProviders(t *testing.T) {
	declared := []ProviderSchema{{Name: "anthropic"}, {Name: "openai"}, {Name: "openai-compatible", Options: chatOptions}}
	tests := []struct {
		name string
		text string
		want string // "" for no error
	}{
		{name: "declared", text: "provider \"anthropic\" {\n  base-url \"http://x.test\"\n}\n"},
		{name: "own name with an api", text: "provider \"local\" {\n  api \"openai-compatible\"\n}\n"},
		{name: "misspelt", text: "provider \"antropic\" {\n  base-url \"http://x.test\"\n}\n",
			want: `FILE:1:1: provider.antropic: "antropic" is not a provider the codec plugins declare (anthropic, openai, openai-compatible); did you mean anthropic?; a provider of your own needs its api`},
		{name: "unknown api", text: "provider \"local\" {\n  api \"openai-compat\"\n}\n",
			want: `FILE:2:7: provider.local.api: "openai-compat" is not a provider the codec plugins declare`},
		{name: "quirks of the codec", text: "provider \"local\" {\n  api \"openai-compatible\"\n  quirks {\n    max-tokens-field \"max_tokens\"\n    no-strict #true\n    max-tool-call-id-len 40\n    label \"anything\"\n  }\n}\n"},
		{name: "unknown quirk", text: "provider \"openai-compatible\" {\n  quirks {\n    no-stream-usag #true\n  }\n}\n",
			want: "FILE:3:5: provider.openai-compatible.quirks.no-stream-usag: is not an option of the openai-compatible codec; known: max-tokens-field, no-stream-usage, no-strict, max-tool-call-id-len, label; did you mean no-stream-usage?"},
		{name: "quirk value", text: "provider \"l\" {\n  api \"openai-compatible\"\n  quirks {\n    max-tokens-field \"max\"\n  }\n}\n",
			want: `FILE:4:22: provider.l.quirks.max-tokens-field: "max" is not one of max_completion_tokens, max_tokens (names the output-limit field)`},
		{name: "quirk bool", text: "provider \"l\" {\n  api \"openai-compatible\"\n  quirks {\n    no-strict \"yes\"\n  }\n}\n",
			want: `provider.l.quirks.no-strict: "yes" is not #true or #false`},
		{name: "quirk count range", text: "provider \"l\" {\n  api \"openai-compatible\"\n  quirks {\n    max-tool-call-id-len 70000\n  }\n}\n",
			want: `provider.l.quirks.max-tool-call-id-len: 70000 is not a whole number from 0 to 65536`},
		{name: "quirks on a codec without options", text: "provider \"anthropic\" {\n  quirks {\n    no-strict #true\n  }\n}\n",
			want: "FILE:2:3: provider.anthropic.quirks: is set, but the anthropic codec takes no options; remove the block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeUser(t, tt.text)
			cfg, err := Load(Inputs{UserFile: path, LookupEnv: noEnv})
			if err != nil {
				t.Fatal(err)
			}
			err = cfg.CheckProviders(declared)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(strings.ReplaceAll(err.Error(), path, "FILE"), tt.want)):
				t.Errorf("error %v\nwant %s", err, tt.want)
			}
		})
	}
}
