package session

import (
	"fmt"

	"github.com/smith-agent/smith/sessionfmt"
)

// PluginStateCommit is a plugin_state_commit entry: one write of one key
// of a plugin's durable state (the entry's Key names the plugin). A
// branch's state is the last commit of each key on its path from the
// root, so forks and branch moves carry the state with the conversation.
type PluginStateCommit struct {
	// Key is the state's key; Value what it holds ("" with Removed).
	Key   string `cbor:"key"`
	Value string `cbor:"value,omitempty"`
	// Version counts the key's writes on the branch, from 1.
	Version uint64 `cbor:"version"`
	// Removed marks a write that removed the key (its version still
	// counts, so a later write continues from it).
	Removed bool `cbor:"removed,omitempty"`
	// Call is the plugin call that wrote it ("tool call ID",
	// "command:NAME", "handler:EVENT").
	Call string `cbor:"call,omitempty"`
}

// StateValue is a key's latest commit on a branch.
type StateValue struct {
	Value   string
	Version uint64
	Removed bool
}

// PluginState returns plugin's state on the path from the root to entry
// leaf: each key's latest commit, removed keys included (for their
// version). An entry whose content does not decode is an error naming it.
func PluginState(sess *sessionfmt.Session, leaf int, plugin string) (map[string]StateValue, error) {
	out := map[string]StateValue{}
	if leaf < 0 {
		return out, nil
	}
	for _, i := range sess.History(leaf, nil) {
		if sess.Kind(i) != sessionfmt.KindPluginStateCommit {
			continue
		}
		e := sess.Entry(i)
		if e.Key != plugin {
			continue
		}
		var c PluginStateCommit
		if err := sessionfmt.DecodeContent(e.Content, &c); err != nil {
			return nil, fmt.Errorf("session: plugin state commit %s: %w", e.ID, err)
		}
		out[c.Key] = StateValue{Value: c.Value, Version: c.Version, Removed: c.Removed}
	}
	return out, nil
}

// PluginState returns plugin's state on the selected branch (see the
// function [PluginState]).
func (s *Store) PluginState(plugin string) (map[string]StateValue, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.f.Session()
	return PluginState(sess, sess.Selected(), plugin)
}

// CommitPluginState writes key of plugin's state on the selected branch,
// atomically with reading it: check is given the state as it is and may
// refuse the write (a version that is not the one expected, a bound);
// then the commit, with the next version, is appended durably (fsynced)
// and its version returned. Safe for concurrent use.
func (s *Store) CommitPluginState(plugin, call, key, value string, check func(cur map[string]StateValue) error) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.f.Session()
	cur, err := PluginState(sess, sess.Selected(), plugin)
	if err != nil {
		return 0, err
	}
	if err := check(cur); err != nil {
		return 0, err
	}
	c := PluginStateCommit{Key: key, Value: value, Version: cur[key].Version + 1, Removed: value == "", Call: call}
	content, err := sessionfmt.EncodeContent(c)
	if err != nil {
		return 0, fmt.Errorf("session: encode plugin state commit: %w", err)
	}
	if err := s.append(sessionfmt.Entry{Kind: sessionfmt.KindPluginStateCommit, Key: plugin, Pair: sessionfmt.NewID(), Content: content}, sessionfmt.Durable); err != nil {
		return 0, err
	}
	return c.Version, nil
}
