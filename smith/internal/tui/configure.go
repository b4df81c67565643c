package tui

import (
	"fmt"
	"maps"
	"slices"

	"github.com/smith-agent/smith/core/config"
)

// Configure checks the tui block of the configuration and returns the
// user's theme styles (role → style) and key bindings (action → keys),
// which [Options] carries to the app. An error names the file:line:col of
// the bad setting and what to write instead.
func Configure(ui config.UI) (theme, keys map[string]string, err error) {
	theme = map[string]string{}
	for _, role := range slices.Sorted(maps.Keys(ui.Theme)) {
		s := ui.Theme[role]
		var th Theme
		if err := th.SetRole(role, s.Value); err != nil {
			return nil, nil, fmt.Errorf("%s: tui.theme.%s: %v", s.Source, role, err)
		}
		theme[role] = s.Value
	}
	keys = map[string]string{}
	for _, act := range slices.Sorted(maps.Keys(ui.Keys)) {
		s := ui.Keys[act]
		if err := CheckKeys(map[string]string{act: s.Value}); err != nil {
			return nil, nil, fmt.Errorf("%s: tui.keys.%s: %v", s.Source, act, err)
		}
		keys[act] = s.Value
	}
	return theme, keys, nil
}
