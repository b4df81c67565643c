package plugin

import (
	"fmt"

	"github.com/smith-agent/smith/core/internal/ident"
)

// validName reports whether name is a valid prompt, context transform or
// command name: a letter, then up to 63 letters, digits, '_' or '-' (as a
// tool name).
func validName(name string) bool { return ident.Valid(name, 64, ident.Letter, toolNameRest) }

// validateContributions checks the prompts, context transforms and
// commands of the complete set: valid names, each unique within the
// generation (an ambiguous name fails naming both plugins), and no command
// named as a tool of its own plugin (both are invoked through invoke-tool).
func (g *Generation) validateContributions() error {
	kinds := []struct {
		kind  string
		names func(*loaded) []string
	}{
		{"prompt", func(l *loaded) (out []string) {
			for _, p := range l.contrib.Prompts {
				out = append(out, p.Name)
			}
			return out
		}},
		{"context transform", func(l *loaded) (out []string) {
			for _, t := range l.contrib.ContextTransforms {
				out = append(out, t.Name)
			}
			return out
		}},
		{"command", func(l *loaded) (out []string) {
			for _, c := range l.contrib.Commands {
				out = append(out, c.Name)
			}
			return out
		}},
	}
	for _, k := range kinds {
		owner := make(map[string]string)
		for _, l := range g.plugins {
			for _, name := range k.names(l) {
				if !validName(name) {
					return fmt.Errorf("plugin: %q declares %s name %q; a name is a letter then up to 63 letters, digits, '_' or '-'", l.art.Name, k.kind, name)
				}
				if prev, dup := owner[name]; dup {
					if prev == l.art.Name {
						return fmt.Errorf("plugin: %q declares %s %q twice; declare each once", l.art.Name, k.kind, name)
					}
					return fmt.Errorf("plugin: %s %q is declared by both %q and %q; disable one of the plugins", k.kind, name, prev, l.art.Name)
				}
				owner[name] = l.art.Name
			}
		}
	}
	for _, l := range g.plugins {
		if err := validateUI(l); err != nil {
			return err
		}
		for _, c := range l.contrib.Commands {
			for _, t := range l.contrib.Tools {
				if t.Name == c.Name {
					return fmt.Errorf("plugin: %q declares %q as both a tool and a command; invoke-tool could not tell them apart, so rename one", l.art.Name, c.Name)
				}
			}
		}
	}
	return nil
}
