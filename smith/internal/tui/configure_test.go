package tui

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/config"
)

// TestConfigure: the user's tui block is checked; each error names the
// setting's file:line:col and what is valid.
func TestConfigure(t *testing.T) {
	at := config.Source{File: "smith.kdl", Line: 2, Col: 14}
	set := func(v string) config.Setting[string] { return config.Setting[string]{Value: v, Source: at} }
	tests := []struct {
		name string
		ui   config.UI
		err  string
	}{
		{name: "valid", ui: config.UI{Keys: map[string]config.Setting[string]{"search": set("ctrl+s")}, Theme: map[string]config.Setting[string]{"accent": set("bold #ff8800 on 236")}}},
		{name: "unknown action", ui: config.UI{Keys: map[string]config.Setting[string]{"serach": set("ctrl+s")}}, err: `smith.kdl:2:14: tui.keys.serach: unknown key action "serach"; the actions are`},
		{name: "bad key", ui: config.UI{Keys: map[string]config.Setting[string]{"search": set("hyper+q+")}}, err: `smith.kdl:2:14: tui.keys.search: search: key "hyper+q+"`},
		{name: "unknown role", ui: config.UI{Theme: map[string]config.Setting[string]{"acent": set("red")}}, err: `tui.theme.acent: "acent" is not a theme role`},
		{name: "bad colour", ui: config.UI{Theme: map[string]config.Setting[string]{"accent": set("purpleish")}}, err: `"purpleish" is not an attribute`},
		{name: "dangling on", ui: config.UI{Theme: map[string]config.Setting[string]{"accent": set("red on")}}, err: `ends with "on"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Configure(tt.ui)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Configure = %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("Configure = %v, want an error containing %q", err, tt.err)
			}
		})
	}
}
