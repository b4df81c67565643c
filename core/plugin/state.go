package plugin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/session"
)

// State is where the plugins granted "state" keep their durable state:
// the session, which the runtime implements it over. Load returns a
// plugin's state on the session's selected branch; Commit writes one key
// atomically with reading the state (check may refuse the write) and
// returns the key's new version once the commit is durable. Both are
// called from plugin calls, possibly concurrently and during a run.
type State interface {
	Load(ctx context.Context, plugin string) (map[string]session.StateValue, error)
	Commit(ctx context.Context, plugin, call, key, value string, check func(cur map[string]session.StateValue) error) (uint64, error)
}

// The bounds of a plugin's state.
const (
	// StateKeyBytes bounds a key: 200 bytes.
	StateKeyBytes = 200
	// StateValueBytes bounds one value: 64 KiB.
	StateValueBytes = 64 << 10
	// StateBytes bounds the values of one plugin's state together: 1 MiB.
	StateBytes = 1 << 20
	// StateKeys bounds the keys holding a value: 1,000.
	StateKeys = 1000
)

// stateHandles numbers the handles open-state gives, across every call
// of the process, so that a handle kept past its call never names
// another call's store.
var stateHandles atomic.Uint64

// stateHost serves the state capability of one plugin.
type stateHost struct {
	name string
}

var _ pluginabi.StateImports = (*stateHost)(nil)

// OpenState serves state open-state.
func (h *stateHost) OpenState(ctx context.Context, owner string) (uint64, error) {
	st, err := h.call(ctx)
	if err != nil {
		return 0, err
	}
	if owner != h.name {
		return 0, pluginabi.StateFault{Case: pluginabi.StateFaultUnauthorized,
			Unauthorized: fmt.Sprintf("plugin %s may open only its own state (owner %q), not %q's", h.name, h.name, owner)}
	}
	id := stateHandles.Add(1)
	st.mu.Lock()
	st.stores = append(st.stores, id)
	st.mu.Unlock()
	return id, nil
}

// ReadValue serves state read-value.
func (h *stateHost) ReadValue(ctx context.Context, handle uint64, key string) (*pluginabi.StateValue, error) {
	st, err := h.opened(ctx, handle)
	if err != nil {
		return nil, err
	}
	if err := checkKey(key); err != nil {
		return nil, err
	}
	cur, err := st.state.Load(ctx, h.name)
	if err != nil {
		return nil, pluginabi.StateFault{Case: pluginabi.StateFaultUnknown, Unknown: err.Error()}
	}
	v, ok := cur[key]
	if !ok || v.Removed {
		return nil, nil
	}
	return &pluginabi.StateValue{Value: v.Value, Version: v.Version}, nil
}

// WriteValue serves state write-value.
func (h *stateHost) WriteValue(ctx context.Context, handle uint64, key, value string, expected *uint64) (uint64, error) {
	st, err := h.opened(ctx, handle)
	if err != nil {
		return 0, err
	}
	if err := checkKey(key); err != nil {
		return 0, err
	}
	if len(value) > StateValueBytes {
		return 0, pluginabi.StateFault{Case: pluginabi.StateFaultTooLarge,
			TooLarge: fmt.Sprintf("the value of %q is %d bytes; a value is at most %d", key, len(value), StateValueBytes)}
	}
	v, err := st.state.Commit(ctx, h.name, st.callID, key, value, func(cur map[string]session.StateValue) error {
		now := cur[key]
		if expected != nil {
			have := now.Version
			if now.Removed {
				have = 0
			}
			if have != *expected {
				return pluginabi.StateFault{Case: pluginabi.StateFaultConflict, Conflict: have}
			}
		}
		total, keys := len(value), 0
		if value != "" {
			keys = 1
		}
		for k, c := range cur {
			if k != key && !c.Removed {
				total, keys = total+len(c.Value), keys+1
			}
		}
		switch {
		case total > StateBytes:
			return pluginabi.StateFault{Case: pluginabi.StateFaultTooLarge,
				TooLarge: fmt.Sprintf("plugin %s's state would hold %d bytes; it holds at most %d (remove keys it no longer needs)", h.name, total, StateBytes)}
		case keys > StateKeys:
			return pluginabi.StateFault{Case: pluginabi.StateFaultTooLarge,
				TooLarge: fmt.Sprintf("plugin %s's state would hold %d keys; it holds at most %d", h.name, keys, StateKeys)}
		}
		return nil
	})
	var f pluginabi.StateFault
	switch {
	case errors.As(err, &f):
		return 0, f
	case err != nil:
		return 0, pluginabi.StateFault{Case: pluginabi.StateFaultUnknown, Unknown: err.Error()}
	}
	st.mu.Lock()
	st.applied = true
	st.mu.Unlock()
	return v, nil
}

// ListKeys serves state list-keys.
func (h *stateHost) ListKeys(ctx context.Context, handle uint64) ([]string, error) {
	st, err := h.opened(ctx, handle)
	if err != nil {
		return nil, err
	}
	cur, err := st.state.Load(ctx, h.name)
	if err != nil {
		return nil, pluginabi.StateFault{Case: pluginabi.StateFaultUnknown, Unknown: err.Error()}
	}
	keys := make([]string, 0, len(cur))
	for k, v := range cur {
		if !v.Removed {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

// call returns the call's state, or the fault of a call that keeps none.
func (h *stateHost) call(ctx context.Context) (*callState, error) {
	st, _ := ctx.Value(callKey{}).(*callState)
	switch {
	case st == nil:
		return nil, pluginabi.StateFault{Case: pluginabi.StateFaultUnavailable,
			Unavailable: "state is available only during a tool call, a command or an event handler"}
	case st.permits("state") != "":
		return nil, pluginabi.StateFault{Case: pluginabi.StateFaultUnauthorized, Unauthorized: st.permits("state")}
	case st.state == nil:
		return nil, pluginabi.StateFault{Case: pluginabi.StateFaultUnavailable,
			Unavailable: "this call keeps no state (a replay, or a session that records nothing)"}
	}
	return st, nil
}

// opened returns the call's state when handle is one this call opened;
// anything else is refused before any read or write.
func (h *stateHost) opened(ctx context.Context, handle uint64) (*callState, error) {
	st, err := h.call(ctx)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	ok := slices.Contains(st.stores, handle)
	st.mu.Unlock()
	if !ok {
		return nil, pluginabi.StateFault{Case: pluginabi.StateFaultUnauthorized,
			Unauthorized: fmt.Sprintf("handle %d was not opened by this call (%s): a handle expires when its call returns; call open-state again", handle, st.callID)}
	}
	return st, nil
}

// checkKey refuses an empty, long or unprintable key.
func checkKey(key string) error {
	why := ""
	switch {
	case key == "":
		why = "a key is not empty"
	case len(key) > StateKeyBytes:
		why = fmt.Sprintf("a key is at most %d bytes; this one has %d", StateKeyBytes, len(key))
	case !utf8.ValidString(key) || strings.ContainsFunc(key, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		why = fmt.Sprintf("%q holds a control character or invalid UTF-8", key)
	}
	if why != "" {
		return pluginabi.StateFault{Case: pluginabi.StateFaultInvalidKey, InvalidKey: why}
	}
	return nil
}
