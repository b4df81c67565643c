package auth

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"
)

// Spec is what a provider plugin declares about its credential. The names
// are data from the plugin; this package knows no vendor.
type Spec struct {
	// Provider is the provider's name.
	Provider string
	// Env lists the environment variables that may hold the credential,
	// in order; the first one set wins. They are the plugin's secret names.
	Env []string
	// Account names one account bucket of the provider (see core/route);
	// its credential is stored under "provider@account" in the
	// configuration or the auth file. The environment serves only the
	// provider's default account (Account "").
	Account string
}

// key is the name the spec's credential is stored under.
func (s Spec) key() string {
	if s.Account != "" {
		return s.Provider + "@" + s.Account
	}
	return s.Provider
}

// Optional reports whether the provider needs no credential (it declares
// no secret, as a local server does).
func (s Spec) Optional() bool { return len(s.Env) == 0 && s.Account == "" }

// Source says where a credential came from.
type Source string

// The credential sources, in the order [Resolver] consults them.
const (
	SourceConfig Source = "config"
	SourceEnv    Source = "env"
	SourceFile   Source = "auth-file"
	// SourceNone: the provider needs no credential.
	SourceNone Source = "none"
)

// Explicit is a credential given in configuration: a literal value, or
// the name of an environment variable to read at resolution.
type Explicit struct {
	// Value is the literal credential; Env, when set, is the variable to
	// read instead.
	Value Secret
	Env   string
	// Origin names where it was set, such as "smith.kdl:4:3".
	Origin string
}

// Credential is a resolved credential. Printing it never shows the value.
type Credential struct {
	Provider string
	Source   Source
	// Origin names where exactly: the variable, the file path, or the
	// configuration.
	Origin string
	Value  Secret
	// Expires is when the credential stops working; zero means never.
	Expires time.Time
}

// RenewFunc exchanges an expired renewable entry for a fresh one. It is
// supplied by the credential's plugin.
type RenewFunc func(ctx context.Context, provider string, e Entry) (Entry, error)

// Resolver finds credentials before dispatch, consulting explicit
// configuration, then the environment, then the auth file. Its fields are
// read-only after construction; a Resolver is safe for concurrent use.
type Resolver struct {
	// Config holds credentials given explicitly in configuration, by
	// provider ("provider@account" for an account bucket). An explicit
	// credential wins over every other source; one that names an unset
	// variable fails rather than falling back, so a mistyped name is never
	// silently replaced by another key.
	Config map[string]Explicit
	// LookupEnv reads the environment; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// File is Smith's auth file; nil means none.
	File *File
	// Renew renews expired renewable credentials of the auth file; nil
	// means expired credentials fail.
	Renew RenewFunc
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// expirySkew renews credentials this long before they expire, so a request
// never leaves with a credential that dies in flight.
const expirySkew = time.Minute

func (r *Resolver) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Resolver) lookupEnv(name string) (string, bool) {
	if r.LookupEnv != nil {
		return r.LookupEnv(name)
	}
	return os.LookupEnv(name)
}

// Resolve returns spec's credential, renewing an expired renewable one from
// the auth file first. The error names the provider and every place looked
// at, never a value.
func (r *Resolver) Resolve(ctx context.Context, spec Spec) (Credential, error) {
	c, found, err := r.find(spec)
	if err != nil || !found {
		return c, err
	}
	if c.Source != SourceFile || c.Expires.IsZero() || r.now().Add(expirySkew).Before(c.Expires) {
		return c, nil
	}
	if r.Renew == nil {
		return Credential{}, fmt.Errorf("auth: the credential of provider %q in %s expired at %s and cannot be renewed here; store a new one with `smith auth set %s`",
			spec.key(), r.File.Path(), c.Expires.UTC().Format(time.RFC3339), spec.key())
	}
	var renewed Entry
	err = r.File.Update(spec.key(), func(cur Entry, exists bool) (Entry, bool, error) {
		if !exists {
			return Entry{}, false, fmt.Errorf("auth: the credential of provider %q was removed from %s while renewing it", spec.key(), r.File.Path())
		}
		if !cur.Expires.IsZero() && r.now().Add(expirySkew).Before(cur.Expires) {
			renewed = cur // another process renewed it meanwhile
			return cur, true, nil
		}
		if cur.Refresh.Empty() {
			return Entry{}, false, fmt.Errorf("auth: the credential of provider %q in %s expired and has no renewal token; store a new one with `smith auth set %s`", spec.key(), r.File.Path(), spec.key())
		}
		next, err := r.Renew(ctx, spec.key(), cur)
		if err != nil {
			return Entry{}, false, fmt.Errorf("auth: renewing the credential of provider %q failed: %s", spec.key(), scrub(err.Error(), cur.Key, cur.Refresh))
		}
		renewed = next
		return next, true, nil
	})
	if err != nil {
		return Credential{}, err
	}
	c.Value, c.Expires = renewed.Key, renewed.Expires
	return c, nil
}

// find looks a credential up without renewing it.
func (r *Resolver) find(spec Spec) (Credential, bool, error) {
	c := Credential{Provider: spec.key()}
	if x, ok := r.Config[spec.key()]; ok {
		origin := x.Origin
		if origin == "" {
			origin = "configuration"
		}
		c.Source, c.Origin = SourceConfig, origin
		if x.Env == "" {
			if x.Value.Empty() {
				return c, false, fmt.Errorf("auth: the credential of provider %q set at %s is empty; give a key or an environment variable", spec.key(), origin)
			}
			c.Value = x.Value
			return c, true, nil
		}
		c.Origin = origin + " (env " + x.Env + ")"
		v, ok := r.lookupEnv(x.Env)
		if !ok || strings.TrimSpace(v) == "" {
			return c, false, fmt.Errorf("auth: the credential of provider %q is configured at %s to come from %s, which is not set; export %s or change the credential in smith.kdl", spec.key(), origin, x.Env, x.Env)
		}
		c.Value = NewSecret(strings.TrimSpace(v))
		return c, true, nil
	}
	for _, name := range spec.Env {
		if spec.Account != "" {
			break
		}
		if v, ok := r.lookupEnv(name); ok && strings.TrimSpace(v) != "" {
			c.Source, c.Origin, c.Value = SourceEnv, name, NewSecret(strings.TrimSpace(v))
			return c, true, nil
		}
	}
	if r.File != nil {
		e, ok, err := r.File.Get(spec.key())
		if err != nil {
			return c, false, err
		}
		if ok && !e.Key.Empty() {
			c.Source, c.Origin, c.Value, c.Expires = SourceFile, r.File.Path(), e.Key, e.Expires
			return c, true, nil
		}
	}
	if spec.Optional() {
		c.Source = SourceNone
		return c, true, nil
	}
	return c, false, r.missing(spec)
}

// MissingError is the error of a Resolve that found no credential: the
// user fixes it by configuring one (its text says how).
type MissingError struct{ text string }

func (e *MissingError) Error() string { return e.text }

func (r *Resolver) missing(spec Spec) error {
	var places []string
	if len(spec.Env) > 0 && spec.Account == "" {
		places = append(places, "set "+strings.Join(spec.Env, " or "))
	}
	places = append(places, fmt.Sprintf("run `smith auth set %s`", spec.key()))
	return &MissingError{text: fmt.Sprintf("auth: no credential for provider %q (looked in the configuration, the environment, and %s); %s",
		spec.key(), r.filePath(), strings.Join(places, ", or "))}
}

func (r *Resolver) filePath() string {
	if r.File == nil {
		return "no auth file"
	}
	return r.File.Path()
}

// Status is the outcome of checking one provider's credential.
type Status struct {
	Provider string `json:"provider"`
	// OK is true when a usable credential was found.
	OK     bool   `json:"ok"`
	Source Source `json:"source,omitempty"`
	Origin string `json:"origin,omitempty"`
	// Expires is when the credential stops working, if it does.
	Expires *time.Time `json:"expires,omitempty"`
	// Problem explains a missing, expired or unreadable credential.
	Problem string `json:"problem,omitempty"`
}

// Check reports each spec's credential source without any network access
// and without a model request; an expired renewable credential is reported
// as such (it is renewed at dispatch). Values are never part of a Status.
func (r *Resolver) Check(specs []Spec) []Status {
	out := make([]Status, 0, len(specs))
	for _, s := range specs {
		c, found, err := r.find(s)
		st := Status{Provider: s.key(), OK: found, Source: c.Source, Origin: c.Origin}
		if err != nil {
			st.Problem = err.Error()
		}
		if !c.Expires.IsZero() {
			exp := c.Expires.UTC()
			st.Expires = &exp
			if !r.now().Before(c.Expires) {
				st.OK = false
				st.Problem = fmt.Sprintf("auth: the credential expired at %s; it is renewed before the next request if it can be, otherwise run `smith auth set %s`", exp.Format(time.RFC3339), s.key())
			}
		}
		out = append(out, st)
	}
	return out
}

// scrub replaces every occurrence of the secrets' values in msg, so an error
// from a careless renewer cannot carry a credential into a diagnostic.
func scrub(msg string, secrets ...Secret) string {
	for _, s := range secrets {
		if !s.Empty() {
			msg = strings.ReplaceAll(msg, s.Reveal(), redacted)
		}
	}
	return msg
}

// Lookup returns a resolver of secret references for the provider bridge:
// every name in names (the provider's declared secret names) resolves to
// the credential's value, whichever source it came from, so a key stored in
// the auth file answers the same reference as the environment variable.
// Other names fail, naming the reference and the accepted names.
func (c Credential) Lookup(names []string) func(ref string) (string, error) {
	return func(ref string) (string, error) {
		for _, n := range names {
			if n == ref {
				if c.Value.Empty() {
					return "", fmt.Errorf("auth: provider %q needs no credential, yet its request references %s", c.Provider, ref)
				}
				return c.Value.Reveal(), nil
			}
		}
		return "", fmt.Errorf("auth: secret reference %q is not one of provider %q's declared secrets (%s)", ref, c.Provider, strings.Join(names, ", "))
	}
}
