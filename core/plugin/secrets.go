package plugin

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/internal/secret"
)

// SecretStore keeps what plugins granted "secrets" store: a
// credential-source plugin's tokens, which requests then carry only as
// references ${secret:NAME}. The runtime implements it over the user's
// auth file. Its methods are called from plugin calls, possibly
// concurrently.
type SecretStore interface {
	// StoreSecret keeps value under name, replacing any previous value,
	// until expires (zero: no expiry), and registers it so that it is
	// redacted everywhere from then on. plugin is the plugin storing it.
	StoreSecret(ctx context.Context, plugin, name, value string, expires time.Time) error
	// HasSecret reports whether a secret is stored under name.
	HasSecret(ctx context.Context, name string) (bool, error)
}

// secretsHost serves the secrets capability of one plugin: it may store
// and check only the names its grant lists (Artifact.Stores), never read
// a value back, and only during a call (a tool, a command, a handler).
type secretsHost struct {
	plugin string
	store  SecretStore
	names  []string
}

var _ pluginabi.SecretsImports = (*secretsHost)(nil)

// allowed returns the call's state, or the fault for a name the plugin
// may not use.
func (s *secretsHost) allowed(ctx context.Context, name string) (*callState, error) {
	st, ok := ctx.Value(callKey{}).(*callState)
	if !ok {
		return nil, pluginabi.SecretFault{Case: pluginabi.SecretFaultUnknown,
			Unknown: "secrets: store-secret and check-secret are available only during a tool call, a command or an event handler"}
	}
	if why := st.permits("secrets"); why != "" {
		return nil, pluginabi.SecretFault{Case: pluginabi.SecretFaultNameDenied, NameDenied: why}
	}
	if !slices.Contains(s.names, name) {
		granted := "none"
		if len(s.names) > 0 {
			granted = strings.Join(s.names, ", ")
		}
		return nil, pluginabi.SecretFault{Case: pluginabi.SecretFaultNameDenied,
			NameDenied: fmt.Sprintf("%s (the plugin may store: %s; its manifest lists them as capability \"secrets\" { store \"NAME\"; })", name, granted)}
	}
	if s.store == nil {
		return nil, pluginabi.SecretFault{Case: pluginabi.SecretFaultStorageFailure, StorageFailure: "this host keeps no secrets"}
	}
	return st, nil
}

// journal runs fn as the effect kind of st's call: its input names the
// secret (and the expiry), never the value.
func (s *secretsHost) journal(ctx context.Context, st *callState, kind string, in any, fn func() (any, error)) error {
	ferr, jerr := st.record(ctx, kind, in, fn)
	if jerr != nil {
		return pluginabi.SecretFault{Case: pluginabi.SecretFaultStorageFailure, StorageFailure: fmt.Sprintf("recording the %s effect failed: %v", kind, jerr)}
	}
	return ferr
}

// StoreSecret serves secrets store-secret.
func (s *secretsHost) StoreSecret(ctx context.Context, name, value string, o pluginabi.StoreOptions) error {
	st, err := s.allowed(ctx, name)
	if err != nil {
		return err
	}
	if v := strings.TrimSpace(value); len(v) < secret.MinLen || v != value {
		return pluginabi.SecretFault{Case: pluginabi.SecretFaultUnknown, Unknown: fmt.Sprintf(
			"secrets: the value for %s is %d bytes long, or has spaces around it; a secret must be at least %d bytes without surrounding spaces, so that it can be redacted without mangling ordinary text",
			name, len(value), secret.MinLen)}
	}
	var expires time.Time
	if o.ExpiresAtMs != nil {
		expires = time.UnixMilli(int64(*o.ExpiresAtMs))
	}
	in := map[string]any{"name": name}
	if !expires.IsZero() {
		in["expires"] = expires.UTC().Format(time.RFC3339)
	}
	return s.journal(ctx, st, "secret.store", in, func() (any, error) {
		if err := s.store.StoreSecret(ctx, s.plugin, name, value, expires); err != nil {
			return nil, pluginabi.SecretFault{Case: pluginabi.SecretFaultStorageFailure, StorageFailure: err.Error()}
		}
		return map[string]string{"stored": "${secret:" + name + "}"}, nil
	})
}

// CheckSecret serves secrets check-secret.
func (s *secretsHost) CheckSecret(ctx context.Context, name string) (bool, error) {
	st, err := s.allowed(ctx, name)
	if err != nil {
		return false, err
	}
	var ok bool
	err = s.journal(ctx, st, "secret.check", map[string]string{"name": name}, func() (any, error) {
		var err error
		if ok, err = s.store.HasSecret(ctx, name); err != nil {
			return nil, pluginabi.SecretFault{Case: pluginabi.SecretFaultStorageFailure, StorageFailure: err.Error()}
		}
		return map[string]bool{"stored": ok}, nil
	})
	return ok, err
}
