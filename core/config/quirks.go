package config

import "slices"

// quirk declares one Chat Completions quirk flag an openai-compatible
// provider block may set: its name in smith.kdl (kebab-case; the codec
// receives snake_case), its kind, and its allowed values when it is a
// string. They mirror the quirk document the providers plugin's
// openai-compatible codec reads (see core/provider.Config.Quirks).
type quirk struct {
	name    string
	kind    string // "bool", "string" or "int"
	allowed []string
	example string
}

var quirks = []quirk{
	{name: "developer-role", kind: "bool", example: "#true"},
	{name: "max-tokens-field", kind: "string", allowed: []string{"max_completion_tokens", "max_tokens"}, example: `"max_tokens"`},
	{name: "no-stream-usage", kind: "bool", example: "#true"},
	{name: "thinking-format", kind: "string", allowed: []string{"openai", "openrouter", "enable_thinking", "none"}, example: `"none"`},
	{name: "echo-reasoning", kind: "string", allowed: []string{"reasoning_content", "reasoning"}, example: `"reasoning_content"`},
	{name: "reasoning-details", kind: "bool", example: "#true"},
	{name: "usage-include", kind: "bool", example: "#true"},
	{name: "tool-result-name", kind: "bool", example: "#true"},
	{name: "no-strict", kind: "bool", example: "#true"},
	{name: "no-prompt-cache-key", kind: "bool", example: "#true"},
	{name: "max-tool-call-id-len", kind: "int", example: "40"},
}

func quirkNamed(name string) (quirk, bool) {
	i := slices.IndexFunc(quirks, func(q quirk) bool { return q.name == name })
	if i < 0 {
		return quirk{}, false
	}
	return quirks[i], true
}

func quirkNames() []string {
	out := make([]string, len(quirks))
	for i, q := range quirks {
		out[i] = q.name
	}
	return out
}
