package plugin

import (
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/core/internal/ident"
	"github.com/smith-agent/smith/core/internal/jsonschema"
	"github.com/smith-agent/smith/core/model"
)

// validToolName reports whether name has the form every provider accepts:
// ^[A-Za-z][A-Za-z0-9_-]{0,63}$.
func validToolName(name string) bool { return ident.Valid(name, 64, ident.Letter, toolNameRest) }

func toolNameRest(c byte) bool { return ident.Alnum(c) || c == '_' || c == '-' }

// validate checks the complete contribution set and builds g.tools.
func (g *Generation) validate() error {
	owner := make(map[string]string)
	for _, l := range g.plugins {
		for _, t := range l.contrib.Tools {
			if !validToolName(t.Name) {
				return fmt.Errorf("plugin: %q declares tool name %q; a tool name is a letter then up to 63 letters, digits, '_' or '-'", l.art.Name, t.Name)
			}
			if prev, dup := owner[t.Name]; dup {
				if prev == l.art.Name {
					return fmt.Errorf("plugin: %q declares tool %q twice; declare each tool once", l.art.Name, t.Name)
				}
				return fmt.Errorf("plugin: tool %q is declared by both %q and %q; disable one of the plugins", t.Name, prev, l.art.Name)
			}
			owner[t.Name] = l.art.Name
			s, err := jsonschema.Compile([]byte(t.InputSchema))
			if err != nil {
				return fmt.Errorf("plugin: %q tool %q: input schema: %w", l.art.Name, t.Name, err)
			}
			g.tools = append(g.tools, &toolDef{plugin: l, schema: s,
				def: model.ToolDefinition{Name: t.Name, Description: t.Description, Parameters: json.RawMessage(t.InputSchema)}})
		}
	}
	return g.validateContributions()
}
