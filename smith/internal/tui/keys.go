package tui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/termkit/input"
)

// An action is something a key does in the interactive mode.
type action string

// The actions, by the names a user's configuration binds keys to.
const (
	actSubmit    action = "submit"
	actFollowUp  action = "follow-up"
	actAbort     action = "abort"
	actQuit      action = "quit"
	actPageUp    action = "page-up"
	actPageDown  action = "page-down"
	actLineUp    action = "scroll-up"
	actLineDown  action = "scroll-down"
	actToEnd     action = "scroll-to-end"
	actToStart   action = "scroll-to-start"
	actExpand    action = "expand"
	actSearch    action = "search"
	actCopyLast  action = "copy-last"
	actRedraw    action = "redraw"
	actComplete  action = "complete"
	actModelPick action = "pick-model"
)

// floorKeys are the bindings that hold when no plugin binds the action,
// so the interactive mode is never unusable: the product plugin
// contributes every binding (plugins-src/product/src/ui.rs).
var floorKeys = map[action]string{actSubmit: "enter", actQuit: "ctrl+c", actAbort: "esc"}

// keyHelp says what each action does, for /help.
var keyHelp = []struct {
	act  action
	text string
}{
	{actSubmit, "send the input (while Smith works: queue it to steer the current run)"},
	{actFollowUp, "while Smith works: queue the input as a follow-up, delivered when the run would stop"},
	{actAbort, "abort the current work, close a picker or the search"},
	{actQuit, "clear the input; press twice to quit"},
	{actPageUp, "scroll the transcript up a page"},
	{actPageDown, "scroll the transcript down a page"},
	{actLineUp, "scroll up a line"},
	{actLineDown, "scroll down a line"},
	{actToEnd, "back to the latest output"},
	{actToStart, "to the start of the transcript"},
	{actExpand, "show or hide thinking and whole tool output"},
	{actSearch, "search the transcript (enter: next older match)"},
	{actCopyLast, "copy the last answer to the clipboard"},
	{actRedraw, "redraw the screen"},
	{actComplete, "complete a /command"},
	{actModelPick, "pick a model"},
}

// keymap maps keys to actions.
type keymap map[action][]input.Key

// knownAction reports whether name is an action of the interactive mode.
func knownAction(name string) bool {
	for _, k := range keyHelp {
		if string(k.act) == name {
			return true
		}
	}
	return false
}

// actionNames lists the actions, sorted.
func actionNames() string {
	names := make([]string, 0, len(keyHelp))
	for _, k := range keyHelp {
		names = append(names, string(k.act))
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// parseKeys parses comma-separated keys.
func parseKeys(keys []string) ([]input.Key, error) {
	var out []input.Key
	for _, k := range keys {
		for _, one := range strings.Split(k, ",") {
			key, err := input.ParseKey(strings.TrimSpace(one))
			if err != nil {
				return nil, fmt.Errorf("key %q: %v", strings.TrimSpace(one), err)
			}
			out = append(out, key)
		}
	}
	return out, nil
}

// CheckKeys validates key binding overrides (action → comma-separated
// keys): every action must be known and every key parse. The error names
// the action or key and lists the valid ones.
func CheckKeys(over map[string]string) error {
	for _, act := range slices.Sorted(maps.Keys(over)) {
		if !knownAction(act) {
			return fmt.Errorf("unknown key action %q; the actions are %s", act, actionNames())
		}
		if _, err := parseKeys([]string{over[act]}); err != nil {
			return fmt.Errorf("%s: %v", act, err)
		}
	}
	return nil
}

// newKeymap layers the bindings: the floor, then the plugins' (a binding
// with an unknown action or a bad key is skipped with a warning naming
// its plugin), then the user's (checked by CheckKeys before).
func newKeymap(p protocol.Presentation, user map[string]string) (keymap, []string) {
	m := keymap{}
	var warn []string
	for act, k := range floorKeys {
		m[act], _ = parseKeys([]string{k})
	}
	for _, act := range slices.Sorted(maps.Keys(p.Keys)) {
		if !knownAction(act) {
			warn = append(warn, fmt.Sprintf("plugin %q binds keys to %q, which is not an action of this Smith (%s); the binding is ignored", p.From["keys."+act], act, actionNames()))
			continue
		}
		keys, err := parseKeys(p.Keys[act])
		if err != nil {
			warn = append(warn, fmt.Sprintf("plugin %q binds %s to a bad key: %v; the binding is ignored", p.From["keys."+act], act, err))
			continue
		}
		m[action(act)] = keys
	}
	for act, k := range user {
		if keys, err := parseKeys([]string{k}); err == nil && knownAction(act) {
			m[action(act)] = keys
		}
	}
	return m, warn
}

// is reports whether k is bound to act.
func (m keymap) is(k input.Key, act action) bool {
	for _, b := range m[act] {
		if k.Is(b) {
			return true
		}
	}
	return false
}

// names lists the keys bound to act, for help.
func (m keymap) names(act action) string {
	var out []string
	for _, k := range m[act] {
		out = append(out, k.String())
	}
	return strings.Join(out, ", ")
}
