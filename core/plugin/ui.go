package plugin

import (
	"fmt"
	"strings"
	"unicode"
)

// KeyBinding is a key binding a plugin contributes to the interactive
// mode: the keys that run one of its actions.
type KeyBinding struct {
	// Action is the action's name, such as "submit".
	Action string
	// Keys are the keys, such as "ctrl+c"; at least one.
	Keys []string
	// Plugin is the contributing plugin.
	Plugin string
}

// ThemeStyle is a theme style a plugin contributes to the interactive
// mode: how one role is drawn.
type ThemeStyle struct {
	// Role is the role's name, such as "accent".
	Role string
	// Style is the style's words, such as "bold #ff8800".
	Style string
	// Plugin is the contributing plugin.
	Plugin string
}

// KeyBindings returns the generation's key bindings in load and
// declaration order; a later binding of an action replaces an earlier
// one. The frontend checks the actions and keys it knows.
func (g *Generation) KeyBindings() []KeyBinding {
	var out []KeyBinding
	for _, l := range g.plugins {
		for _, b := range l.contrib.KeyBindings {
			out = append(out, KeyBinding{Action: b.Action, Keys: append([]string(nil), b.Keys...), Plugin: l.art.Name})
		}
	}
	return out
}

// Theme returns the generation's theme styles in load and declaration
// order; a later style of a role replaces an earlier one.
func (g *Generation) Theme() []ThemeStyle {
	var out []ThemeStyle
	for _, l := range g.plugins {
		for _, s := range l.contrib.Theme {
			out = append(out, ThemeStyle{Role: s.Role, Style: s.Style, Plugin: l.art.Name})
		}
	}
	return out
}

// Layout is the interactive mode's layout a plugin contributes: the
// status line's segments and the input box's prompt and placeholder.
type Layout struct {
	StatusLeft, StatusRight []string
	Prompt, Placeholder     string
	// Plugin is the contributing plugin.
	Plugin string
}

// Layout returns the layout of the last plugin (in load order) that
// contributes one; ok is false when none does.
func (g *Generation) Layout() (Layout, bool) {
	var out Layout
	ok := false
	for _, l := range g.plugins {
		if lo := l.contrib.Layout; lo != nil {
			out = Layout{StatusLeft: append([]string(nil), lo.StatusLeft...), StatusRight: append([]string(nil), lo.StatusRight...),
				Prompt: lo.Prompt, Placeholder: lo.Placeholder, Plugin: l.art.Name}
			ok = true
		}
	}
	return out, ok
}

// maxUIText bounds a key name or a style.
const maxUIText = 128

// validateUI checks a plugin's key bindings and theme styles: valid
// action and role names, each once per plugin, at least one key, and
// keys and styles that are short printable text.
func validateUI(l *loaded) error {
	name := l.art.Name
	seen := map[string]bool{}
	for _, b := range l.contrib.KeyBindings {
		if !validName(b.Action) {
			return fmt.Errorf("plugin: %q binds keys to action %q; an action name is a letter then up to 63 letters, digits, '_' or '-'", name, b.Action)
		}
		if seen[b.Action] {
			return fmt.Errorf("plugin: %q binds action %q twice; list all its keys in one binding", name, b.Action)
		}
		seen[b.Action] = true
		if len(b.Keys) == 0 || len(b.Keys) > 8 {
			return fmt.Errorf("plugin: %q binds action %q to %d keys; give 1 to 8", name, b.Action, len(b.Keys))
		}
		for _, k := range b.Keys {
			if !printable(k) {
				return fmt.Errorf("plugin: %q binds action %q to key %q; a key is printable text of 1 to %d bytes, such as \"ctrl+c\"", name, b.Action, k, maxUIText)
			}
		}
	}
	seen = map[string]bool{}
	for _, s := range l.contrib.Theme {
		if !validName(s.Role) {
			return fmt.Errorf("plugin: %q styles theme role %q; a role name is a letter then up to 63 letters, digits, '_' or '-'", name, s.Role)
		}
		if seen[s.Role] {
			return fmt.Errorf("plugin: %q styles theme role %q twice; keep one", name, s.Role)
		}
		seen[s.Role] = true
		if !printable(s.Style) {
			return fmt.Errorf("plugin: %q styles theme role %q as %q; a style is printable words of 1 to %d bytes, such as \"bold #ff8800\"", name, s.Role, s.Style, maxUIText)
		}
	}
	if lo := l.contrib.Layout; lo != nil {
		for _, seg := range append(append([]string(nil), lo.StatusLeft...), lo.StatusRight...) {
			if !validName(seg) {
				return fmt.Errorf("plugin: %q lays out status segment %q; a segment name is a letter then up to 63 letters, digits, '_' or '-'", name, seg)
			}
		}
		if len(lo.StatusLeft)+len(lo.StatusRight) > 16 {
			return fmt.Errorf("plugin: %q lays out %d status segments; at most 16", name, len(lo.StatusLeft)+len(lo.StatusRight))
		}
		if lo.Prompt != "" && !printable(lo.Prompt) || len(lo.Prompt) > 16 {
			return fmt.Errorf("plugin: %q sets the input prompt %q; it is printable text of at most 16 bytes, such as \"> \"", name, lo.Prompt)
		}
		if lo.Placeholder != "" && !printable(lo.Placeholder) {
			return fmt.Errorf("plugin: %q sets the input placeholder %q; it is printable text of at most %d bytes", name, lo.Placeholder, maxUIText)
		}
	}
	return nil
}

// printable reports whether s is 1 to maxUIText bytes of printable text.
func printable(s string) bool {
	if s == "" || len(s) > maxUIText || strings.TrimSpace(s) == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
