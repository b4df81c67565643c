package guest

import (
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/wit/contrib"
)

// Providers are the providers the plugin declares, in order: each is an
// endpoint of package endpoints.
var Providers = []string{"anthropic", "openai", "openai-chat", "google", "openai-compatible"}

var displayNames = map[string]string{
	"anthropic":         "Anthropic",
	"openai":            "OpenAI (Responses)",
	"openai-chat":       "OpenAI (Chat Completions)",
	"google":            "Google Gemini",
	"openai-compatible": "OpenAI-compatible server",
}

// Plugin implements the contrib and provider exports. The zero Plugin is
// ready to use.
type Plugin struct{}

// DeclareContributions declares the providers; their secret names are the
// conventional credential variables (the host resolves a reference by that
// name).
func (Plugin) DeclareContributions(contrib.DeclareOptions) (contrib.Contributions, error) {
	var c contrib.Contributions
	for _, name := range Providers {
		e, err := endpoints.Lookup(name)
		if err != nil {
			return contrib.Contributions{}, contrib.RegistrationFault{Case: contrib.RegistrationFaultUnknown, Unknown: err.Error()}
		}
		c.Providers = append(c.Providers, contrib.ProviderDefinition{Name: name, DisplayName: displayNames[name],
			SecretNames: append([]string{}, e.KeyEnv...)})
	}
	return c, nil
}
