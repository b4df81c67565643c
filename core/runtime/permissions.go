package runtime

import (
	"encoding/json"
	"slices"

	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/plugin"
)

// permissionsPlugin is the system plugin that decides every tool call by
// the permission policy (plugins-src/permissions).
const permissionsPlugin = "permissions"

// policyConfiguration is the permissions plugin's configuration: the
// permission policy it applies to every tool call before it runs
// (plugins-src/permissions/src/permissions.rs reads it).
type policyConfiguration struct {
	Permissions policyDoc `json:"permissions"`
}

type policyDoc struct {
	Mode   string       `json:"mode"`
	Yes    bool         `json:"yes,omitempty"`
	Config string       `json:"config,omitempty"`
	Rules  []policyRule `json:"rules,omitempty"`
}

type policyRule struct {
	Effect   string   `json:"effect"`
	Tool     string   `json:"tool"`
	Patterns []string `json:"patterns,omitempty"`
	Source   string   `json:"source"`
}

// withPolicy returns arts with the permissions plugin's configuration set
// to conf's permission policy; arts itself is not changed. userFile is the
// user's smith.kdl, named in the fixes the plugin suggests. The default
// policy (mode auto, no rules) leaves the configuration unset, and the
// plugin then subscribes to nothing and is never called.
func withPolicy(arts []plugin.Artifact, conf *config.Config, userFile string) []plugin.Artifact {
	p := conf.Permissions
	if conf.PermissionMode() == config.DefaultPermissionMode && len(p.Rules) == 0 {
		return arts
	}
	doc := policyDoc{Mode: conf.PermissionMode(), Yes: p.Yes.Value, Config: userFile}
	for _, r := range p.Rules {
		effect := "deny"
		if r.Allow {
			effect = "allow"
		}
		doc.Rules = append(doc.Rules, policyRule{Effect: effect, Tool: r.Tool, Patterns: r.Patterns, Source: r.Source.String()})
	}
	b, err := json.Marshal(policyConfiguration{Permissions: doc})
	if err != nil {
		return arts // strings and bools always marshal
	}
	out := slices.Clone(arts)
	for i := range out {
		if out[i].Name == permissionsPlugin {
			out[i].Configuration = string(b)
		}
	}
	return out
}
