package runtime

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/session"
)

// secretProxy is the runtime's registered secrets: every credential it
// knows of (provider keys in the environment, the auth file and smith.kdl,
// and each one it resolves) and the secrets the user registered (smith
// secret add, secret nodes of smith.kdl). They are replaced by references
// ${secret:NAME} in every provider request, tool result and session
// record; a process inherits no variable holding one; a command receives
// the user's secrets by reference only. It is safe for concurrent use.
type secretProxy struct {
	set secret.Set

	mu      sync.Mutex
	regs    []session.SecretRegistration // in registration order, latest per name
	user    map[string]bool              // names a command may receive by reference
	salt    []byte
	scanned bool // the known sources were read (registerKnown)
}

// maxSecretFile bounds a secret read from a file.
const maxSecretFile = 64 << 10

// Secrets lists the secrets a session of this runtime registers — the
// user's, and every credential found in the environment, smith.kdl and
// the auth file — by name, source and salted fingerprint, never a value.
// It waits for the plugin generation (the providers declare their
// credential variables). It is safe for concurrent use.
func (rt *Runtime) Secrets(ctx context.Context) ([]session.SecretRegistration, error) {
	gen, err := rt.Generation(ctx)
	if err != nil {
		return nil, err
	}
	rt.registerKnown(gen)
	return rt.registered(), nil
}

// registered returns the registrations so far.
func (rt *Runtime) registered() []session.SecretRegistration {
	p := &rt.secrets
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.regs)
}

// register adds one secret. A value too short to redact is passed over,
// with a note when the user registered it; one that cannot be added is a
// note naming it, never its value.
func (rt *Runtime) register(name, source, value string, user bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return
	}
	p := &rt.secrets
	if len(value) < secret.MinLen {
		if user {
			rt.cfg.Notify(fmt.Sprintf("secret %s (from %s) is %d bytes long, shorter than %d: it cannot be redacted without mangling ordinary text, so it is not registered; use a longer value", name, source, len(value), secret.MinLen))
		}
		return
	}
	if err := p.set.Add(secret.Secret{Name: name, Source: source, Value: value}); err != nil {
		rt.cfg.Notify(fmt.Sprintf("secret %s (from %s) is not registered: %v; rename it", name, source, err))
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fp := secret.Fingerprint(rt.secretSalt(), value)
	p.regs = slices.DeleteFunc(p.regs, func(r session.SecretRegistration) bool { return r.Name == name })
	p.regs = append(p.regs, session.SecretRegistration{Name: name, Source: source, Fingerprint: fp})
	if user {
		if p.user == nil {
			p.user = map[string]bool{}
		}
		p.user[name] = true
	}
}

// allowedInCommand is the default secret policy: a command may receive
// the secrets the user registered, by reference; never a provider's
// credential.
func (rt *Runtime) allowedInCommand(name string) bool {
	p := &rt.secrets
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.user[name]
}

// registerKnown registers, once, every secret the runtime can find
// without a request: the user's (auth file, smith.kdl secret nodes), the
// providers' credential variables set in the environment, the
// credentials of smith.kdl and of the auth file.
func (rt *Runtime) registerKnown(gen *plugin.Generation) {
	p := &rt.secrets
	p.mu.Lock()
	done := p.scanned
	p.scanned = true
	p.mu.Unlock()
	if done {
		return
	}
	file := rt.AuthFile()
	if user, err := file.Secrets(); err != nil {
		rt.cfg.Notify(fmt.Sprintf("the secrets registered with 'smith secret add' could not be read, so they are not redacted: %v", err))
	} else {
		for _, name := range slices.Sorted(maps.Keys(user)) {
			rt.register(name, "smith secret add", user[name].Reveal(), true)
		}
	}
	for _, ref := range rt.conf.Secrets {
		v, err := readSecretRef(ref, rt.cfg.LookupEnv)
		if err != nil {
			rt.cfg.Notify(err.Error())
			continue
		}
		rt.register(ref.Name, ref.Source.String(), v, true)
	}
	if gen != nil {
		for _, d := range gen.Providers() {
			for _, name := range credentialVariables(d.SecretNames) {
				if v, ok := rt.cfg.LookupEnv(name); ok {
					rt.register(name, "env "+name, v, false)
				}
			}
		}
	}
	creds := rt.conf.Credentials()
	for _, key := range slices.Sorted(maps.Keys(creds)) {
		c := creds[key]
		if c.Env != "" {
			if v, ok := rt.cfg.LookupEnv(c.Env); ok {
				rt.register(c.Env, "env "+c.Env+" ("+c.Origin+")", v, false)
			}
			continue
		}
		rt.register(credentialName("config", key), c.Origin, c.Value.Reveal(), false)
	}
	if providers, err := file.Providers(); err == nil {
		for _, prov := range providers {
			if e, ok, err := file.Get(prov); err == nil && ok {
				rt.register(credentialName("auth", prov), "auth file "+file.Path(), e.Key.Reveal(), false)
				rt.register(credentialName("auth", prov)+".refresh", "auth file "+file.Path(), e.Refresh.Reveal(), false)
			}
		}
	}
}

// registerCredential registers a credential the runtime resolved.
func (rt *Runtime) registerCredential(c auth.Credential) {
	switch c.Source {
	case auth.SourceEnv:
		rt.register(c.Origin, "env "+c.Origin, c.Value.Reveal(), false)
	case auth.SourceFile:
		rt.register(credentialName("auth", c.Provider), "auth file "+c.Origin, c.Value.Reveal(), false)
	case auth.SourceConfig:
		rt.register(credentialName("config", c.Provider), c.Origin, c.Value.Reveal(), false)
	}
}

// credentialName is the secret name of a provider's credential from a
// store: "auth.anthropic", "config.openai.work" (an account's '@' is '.').
func credentialName(store, provider string) string {
	return store + "." + strings.NewReplacer("@", ".", "/", ".").Replace(provider)
}

// readSecretRef reads the value of a secret node of smith.kdl.
func readSecretRef(ref config.SecretRef, lookup func(string) (string, bool)) (string, error) {
	if ref.Env != "" {
		v, ok := lookup(ref.Env)
		if !ok {
			return "", fmt.Errorf("secret %s (%s) comes from %s, which is not set, so it is not registered; export %s or remove the secret node", ref.Name, ref.Source, ref.Env, ref.Env)
		}
		return v, nil
	}
	f, err := os.Open(ref.File)
	if err != nil {
		return "", fmt.Errorf("secret %s (%s): cannot read %s (%v), so it is not registered; fix file= or remove the secret node", ref.Name, ref.Source, ref.File, errors.Unwrap(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	if err != nil || len(b) > maxSecretFile {
		return "", fmt.Errorf("secret %s (%s): %s is not a readable file of at most %d bytes, so it is not registered; point file= at the file holding the value", ref.Name, ref.Source, ref.File, maxSecretFile)
	}
	return string(b), nil
}

// secretSalt returns the installation's fingerprint salt (secret-salt in
// the data directory, made on first use); where it cannot be kept, one
// for this process. Called with rt.secrets.mu held.
func (rt *Runtime) secretSalt() []byte {
	p := &rt.secrets
	if p.salt != nil {
		return p.salt
	}
	path := filepath.Join(rt.paths.Data, "secret-salt")
	if b, err := os.ReadFile(path); err == nil && len(b) >= 16 {
		p.salt = b
		return b
	}
	salt := make([]byte, 32)
	_, _ = rand.Read(salt)
	p.salt = salt
	if err := os.MkdirAll(rt.paths.Data, 0o700); err == nil {
		if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			_, _ = f.Write(salt)
			_ = f.Close()
		} else if errors.Is(err, fs.ErrExist) {
			if b, err := os.ReadFile(path); err == nil && len(b) >= 16 {
				p.salt = b // another process made it first
			}
		}
	}
	return p.salt
}

// recordSecrets appends a secret_registration entry for each registered
// secret the session has not recorded with its current fingerprint.
// Called with s.mu held, once the file has begun.
func (s *Session) recordSecrets() error {
	for _, r := range s.rt.registered() {
		if s.secretsRecorded[r.Name] == r.Fingerprint {
			continue
		}
		if err := s.store.RecordSecretRegistration(r); err != nil {
			return fmt.Errorf("runtime: record the registration of secret %s: %w", r.Name, err)
		}
		s.secretsRecorded[r.Name] = r.Fingerprint
	}
	return nil
}

// rescan makes the next registerKnown read the known sources again, for
// a reloaded generation whose providers may name other credentials.
// Registering a secret again with the same value changes nothing.
func (p *secretProxy) rescan() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.scanned = false
}

// pluginSecrets keeps the secrets plugins store (the secrets capability)
// in the user's auth file, beside those of `smith secret add`, and
// registers each at once, so that it is redacted from then on.
type pluginSecrets struct{ rt *Runtime }

var _ plugin.SecretStore = pluginSecrets{}

// StoreSecret stores and registers value under name.
func (s pluginSecrets) StoreSecret(_ context.Context, from, name, value string, expires time.Time) error {
	if err := s.rt.AuthFile().SetSecretUntil(name, auth.NewSecret(value), expires); err != nil {
		return fmt.Errorf("cannot store it in Smith's auth file: %v", err)
	}
	s.rt.register(name, "plugin "+from, value, true)
	return nil
}

// HasSecret reports whether the auth file holds an unexpired secret name.
func (s pluginSecrets) HasSecret(_ context.Context, name string) (bool, error) {
	all, err := s.rt.AuthFile().Secrets()
	if err != nil {
		return false, fmt.Errorf("cannot read Smith's auth file: %v", err)
	}
	_, ok := all[name]
	return ok, nil
}
