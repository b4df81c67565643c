package plugin

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// TestValidateUI: key bindings and theme styles are checked before a
// generation is published; each refusal names the plugin, the value and
// the fix.
func TestValidateUI(t *testing.T) {
	kb := func(action string, keys ...string) pluginabi.KeyBinding {
		return pluginabi.KeyBinding{Action: action, Keys: keys}
	}
	ts := func(role, style string) pluginabi.ThemeStyle { return pluginabi.ThemeStyle{Role: role, Style: style} }
	tests := []struct {
		name   string
		keys   []pluginabi.KeyBinding
		theme  []pluginabi.ThemeStyle
		layout *pluginabi.ScreenLayout
		want   string // "" = valid
	}{
		{name: "valid", keys: []pluginabi.KeyBinding{kb("submit", "enter"), kb("quit", "ctrl+c", "ctrl+d")}, theme: []pluginabi.ThemeStyle{ts("accent", "bold #ff8800")}},
		{name: "bad action", keys: []pluginabi.KeyBinding{kb("9lives", "x")}, want: `action "9lives"; an action name is a letter`},
		{name: "action twice", keys: []pluginabi.KeyBinding{kb("submit", "enter"), kb("submit", "ctrl+s")}, want: `binds action "submit" twice`},
		{name: "no keys", keys: []pluginabi.KeyBinding{kb("submit")}, want: `to 0 keys; give 1 to 8`},
		{name: "control in key", keys: []pluginabi.KeyBinding{kb("submit", "\x1b[31m")}, want: `a key is printable text`},
		{name: "empty style", theme: []pluginabi.ThemeStyle{ts("accent", " ")}, want: `a style is printable words`},
		{name: "escape in style", theme: []pluginabi.ThemeStyle{ts("accent", "bold\x1b]52;c;x\a")}, want: `a style is printable words`},
		{name: "bad segment", layout: &pluginabi.ScreenLayout{StatusLeft: []string{"act ivity"}}, want: `status segment "act ivity"`},
		{name: "escape in prompt", layout: &pluginabi.ScreenLayout{Prompt: "\x1b[31m>"}, want: `sets the input prompt`},
		{name: "valid layout", layout: &pluginabi.ScreenLayout{StatusLeft: []string{"activity"}, StatusRight: []string{"model"}, Prompt: "> ", Placeholder: "Ask"}},
		{name: "role twice", theme: []pluginabi.ThemeStyle{ts("accent", "red"), ts("accent", "blue")}, want: `theme role "accent" twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &loaded{art: Artifact{Name: "p"}, contrib: pluginabi.Contributions{KeyBindings: tt.keys, Theme: tt.theme, Layout: tt.layout}}
			err := validateUI(l)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("validateUI = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `"p"`)):
				t.Errorf("validateUI = %v, want an error naming the plugin and %q", err, tt.want)
			}
		})
	}
}
