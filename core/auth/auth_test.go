package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const key = "sk-test-SECRET-9f8e7d6c"

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestResolvePrecedence(t *testing.T) {
	dir := t.TempDir()
	f := OpenFile(filepath.Join(dir, "auth.json"))
	if err := f.Set("acme", Entry{Key: NewSecret("from-file")}); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Provider: "acme", Env: []string{"ACME_KEY", "ACME_OTHER_KEY"}}
	tests := []struct {
		name       string
		r          Resolver
		spec       Spec
		wantSource Source
		wantOrigin string
		wantValue  string
	}{
		{name: "config first", r: Resolver{Config: map[string]Explicit{"acme": {Value: NewSecret("from-config"), Origin: "smith.kdl"}},
			LookupEnv: env(map[string]string{"ACME_KEY": "from-env"}), File: f}, spec: spec, wantSource: SourceConfig, wantOrigin: "smith.kdl", wantValue: "from-config"},
		{name: "config names a variable", r: Resolver{Config: map[string]Explicit{"acme": {Env: "WORK_KEY", Origin: "smith.kdl:4:3"}},
			LookupEnv: env(map[string]string{"ACME_KEY": "from-env", "WORK_KEY": " from-work\n"}), File: f}, spec: spec,
			wantSource: SourceConfig, wantOrigin: "smith.kdl:4:3 (env WORK_KEY)", wantValue: "from-work"},
		{name: "config for an account bucket", r: Resolver{Config: map[string]Explicit{"acme@work": {Value: NewSecret("from-bucket")}},
			LookupEnv: env(map[string]string{"ACME_KEY": "from-env"}), File: f}, spec: Spec{Provider: "acme", Env: spec.Env, Account: "work"},
			wantSource: SourceConfig, wantOrigin: "configuration", wantValue: "from-bucket"},
		{name: "env before file", r: Resolver{LookupEnv: env(map[string]string{"ACME_KEY": "from-env"}), File: f}, spec: spec,
			wantSource: SourceEnv, wantOrigin: "ACME_KEY", wantValue: "from-env"},
		{name: "second variable", r: Resolver{LookupEnv: env(map[string]string{"ACME_KEY": "  ", "ACME_OTHER_KEY": "other\n"}), File: f}, spec: spec,
			wantSource: SourceEnv, wantOrigin: "ACME_OTHER_KEY", wantValue: "other"},
		{name: "file last", r: Resolver{LookupEnv: env(nil), File: f}, spec: spec, wantSource: SourceFile, wantOrigin: f.Path(), wantValue: "from-file"},
		{name: "no credential needed", r: Resolver{LookupEnv: env(nil)}, spec: Spec{Provider: "local"}, wantSource: SourceNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.r.Resolve(context.Background(), tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if c.Source != tt.wantSource || c.Origin != tt.wantOrigin || c.Value.Reveal() != tt.wantValue {
				t.Errorf("got %s %s %q", c.Source, c.Origin, c.Value.Reveal())
			}
		})
	}
	r := Resolver{LookupEnv: env(nil), File: OpenFile(filepath.Join(dir, "none.json"))}
	_, err := r.Resolve(context.Background(), spec)
	for _, want := range []string{`no credential for provider "acme"`, "set ACME_KEY or ACME_OTHER_KEY", "none.json", "smith auth set acme"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing credential error %v lacks %q", err, want)
		}
	}
}

// TestExplicitUnsetVariable: a configured credential variable that is not
// set fails, naming the variable and where it was configured, and does not
// fall back to the provider's own variable or the auth file.
func TestExplicitUnsetVariable(t *testing.T) {
	dir := t.TempDir()
	f := OpenFile(filepath.Join(dir, "auth.json"))
	if err := f.Set("acme", Entry{Key: NewSecret("from-file")}); err != nil {
		t.Fatal(err)
	}
	r := Resolver{Config: map[string]Explicit{"acme": {Env: "WORK_KEY", Origin: "smith.kdl:4:3"}},
		LookupEnv: env(map[string]string{"ACME_KEY": "from-env"}), File: f}
	spec := Spec{Provider: "acme", Env: []string{"ACME_KEY"}}
	_, err := r.Resolve(context.Background(), spec)
	for _, want := range []string{`provider "acme"`, "smith.kdl:4:3", "WORK_KEY", "not set"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	for _, leak := range []string{"from-env", "from-file"} {
		if err != nil && strings.Contains(err.Error(), leak) {
			t.Errorf("error %v reveals a credential", err)
		}
	}
	st := r.Check([]Spec{spec})
	if len(st) != 1 || st[0].OK || st[0].Source != SourceConfig || !strings.Contains(st[0].Problem, "WORK_KEY") {
		t.Errorf("status %+v: want not OK, source config, the problem naming WORK_KEY", st)
	}
}

func TestFileIsPrivateAndAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "auth.json")
	f := OpenFile(path)
	if err := f.Set("a", Entry{Key: NewSecret("k1"), Expires: time.UnixMilli(1_800_000_000_000)}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o, want 0600", info.Mode().Perm())
	}
	names, _ := filepath.Glob(filepath.Join(dir, "sub", ".auth.json.tmp-*"))
	if len(names) != 0 {
		t.Errorf("temporary files left: %v", names)
	}
	e, ok, err := f.Get("a")
	if err != nil || !ok || e.Key.Reveal() != "k1" || e.Expires.UnixMilli() != 1_800_000_000_000 {
		t.Fatalf("round trip: %+v %v %v", e, ok, err)
	}
	if err := f.Delete("a"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := f.Get("a"); ok {
		t.Error("entry survived Delete")
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Get("a"); err == nil || !strings.Contains(err.Error(), "mode 0644, readable by others; run `chmod 600") {
		t.Errorf("wide mode accepted: %v", err)
	}
}

// TestFileKeepsOtherEntriesVerbatim: an update to one provider keeps the
// others' entries, fields this version does not know included.
func TestFileKeepsOtherEntriesVerbatim(t *testing.T) {
	path := filepath.Join(t.TempDir(), "auth.json")
	if err := os.WriteFile(path, []byte(`{"version":1,"providers":{"other":{"key":"x","plugin_state":{"a":[1,2]}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := OpenFile(path).Set("mine", Entry{Key: NewSecret("y")}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var d struct{ Providers map[string]json.RawMessage }
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, d.Providers["other"]); err != nil || compact.String() != `{"key":"x","plugin_state":{"a":[1,2]}}` {
		t.Errorf("other entry changed: %s", d.Providers["other"])
	}
}

func TestConcurrentUpdatesGoroutines(t *testing.T) {
	f := OpenFile(filepath.Join(t.TempDir(), "auth.json"))
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			for i := range 8 {
				if err := f.Set(fmt.Sprintf("p%d-%d", g, i), Entry{Key: NewSecret(strconv.Itoa(i))}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	ps, err := f.Providers()
	if err != nil || len(ps) != 48 {
		t.Fatalf("%d providers after 48 concurrent updates (%v)", len(ps), err)
	}
}

// TestConcurrentUpdatesProcesses runs several processes updating different
// providers of one file at once; no update may be lost.
func TestConcurrentUpdatesProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "auth.json")
	const procs, each = 4, 12
	var cmds []*exec.Cmd
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), "AUTH_HELPER_FILE="+path, "AUTH_HELPER_PREFIX="+strconv.Itoa(p), "AUTH_HELPER_N="+strconv.Itoa(each))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := OpenFile(path).Providers()
	if err != nil || len(ps) != procs*each {
		t.Fatalf("%d providers after %d updates from %d processes (%v)", len(ps), procs*each, procs, err)
	}
}

func TestHelperProcess(t *testing.T) {
	path := os.Getenv("AUTH_HELPER_FILE")
	if path == "" {
		return // not a helper: nothing to do (the real test is above)
	}
	n, _ := strconv.Atoi(os.Getenv("AUTH_HELPER_N"))
	f := OpenFile(path)
	for i := range n {
		if err := f.Set(fmt.Sprintf("proc%s-%d", os.Getenv("AUTH_HELPER_PREFIX"), i), Entry{Key: NewSecret("v")}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRenewal(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	f := OpenFile(filepath.Join(t.TempDir(), "auth.json"))
	if err := f.Set("acme", Entry{Key: NewSecret("old"), Refresh: NewSecret("rt"), Expires: now.Add(30 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	r := Resolver{LookupEnv: env(nil), File: f, Now: func() time.Time { return now },
		Renew: func(_ context.Context, p string, e Entry) (Entry, error) {
			calls.Add(1)
			if e.Refresh.Reveal() != "rt" {
				return Entry{}, errors.New("wrong token")
			}
			return Entry{Key: NewSecret("new"), Refresh: NewSecret("rt2"), Expires: now.Add(time.Hour)}, nil
		}}
	spec := Spec{Provider: "acme", Env: []string{"ACME_KEY"}}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			c, err := r.Resolve(context.Background(), spec)
			if err != nil || c.Value.Reveal() != "new" {
				t.Errorf("resolve: %v %q", err, c.Value.Reveal())
			}
		})
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("renewed %d times, want once", calls.Load())
	}
	if e, _, _ := f.Get("acme"); e.Key.Reveal() != "new" || e.Refresh.Reveal() != "rt2" {
		t.Error("renewed credential not stored")
	}
	r.Now = func() time.Time { return now.Add(2 * time.Hour) }
	r.Renew = nil
	if _, err := r.Resolve(context.Background(), spec); err == nil || !strings.Contains(err.Error(), "expired at 2026-11-30T13:00:00Z and cannot be renewed") {
		t.Errorf("expired without renewer: %v", err)
	}
}

// TestNoCredentialLeaks drives every failure path and every way of printing
// a credential and greps all of it for the key.
func TestNoCredentialLeaks(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	logger := log.New(&out, "", 0)
	record := func(err error) {
		if err != nil {
			logger.Print(err)
		}
	}
	spec := Spec{Provider: "acme", Env: []string{"ACME_KEY"}}

	// Printing a resolved credential, every verb, JSON.
	r := Resolver{LookupEnv: env(map[string]string{"ACME_KEY": key})}
	c, err := r.Resolve(context.Background(), spec)
	if err != nil || c.Value.Reveal() != key {
		t.Fatal(err)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X"} {
		logger.Printf(verb, c)
		logger.Printf(verb, c.Value)
	}
	b, _ := json.Marshal(c)
	logger.Print(string(b))
	st, _ := json.Marshal(r.Check([]Spec{spec}))
	logger.Print(string(st))

	// A corrupt file holding the key.
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(bad, []byte(`{"version":1,"providers":{"acme":{"key":"`+key+`"`), 0o600)
	_, _, err = OpenFile(bad).Get("acme")
	record(err)
	// A malformed entry holding the key.
	mal := filepath.Join(dir, "mal.json")
	_ = os.WriteFile(mal, []byte(`{"version":1,"providers":{"acme":{"key":["`+key+`"]}}}`), 0o600)
	_, _, err = OpenFile(mal).Get("acme")
	record(err)
	// A world-readable file holding the key.
	wide := filepath.Join(dir, "wide.json")
	_ = os.WriteFile(wide, []byte(`{"version":1,"providers":{"acme":{"key":"`+key+`"}}}`), 0o644)
	_ = os.Chmod(wide, 0o644)
	_, err = (&Resolver{LookupEnv: env(nil), File: OpenFile(wide)}).Resolve(context.Background(), spec)
	record(err)
	// A renewer whose error quotes the credential.
	exp := filepath.Join(dir, "exp.json")
	f := OpenFile(exp)
	_ = f.Set("acme", Entry{Key: NewSecret(key), Refresh: NewSecret(key + "-refresh"), Expires: time.Unix(1, 0)})
	rr := Resolver{LookupEnv: env(nil), File: f, Renew: func(_ context.Context, _ string, e Entry) (Entry, error) {
		return Entry{}, fmt.Errorf("server rejected %s and %s", e.Key.Reveal(), e.Refresh.Reveal())
	}}
	_, err = rr.Resolve(context.Background(), spec)
	if err == nil {
		t.Fatal("renewal failure not reported")
	}
	record(err)
	for _, s := range rr.Check([]Spec{spec}) {
		logger.Printf("%+v", s)
	}
	_, err = (&Resolver{LookupEnv: env(nil), File: f}).Resolve(context.Background(), spec)
	record(err)

	text := out.String()
	if strings.Contains(text, key) || strings.Contains(text, fmt.Sprintf("%x", key)) {
		t.Fatalf("credential leaked:\n%s", text)
	}
	for _, want := range []string{"[redacted]", "not valid JSON", "is malformed", "readable by others", "renewing the credential", "expired at"} {
		if !strings.Contains(text, want) {
			t.Errorf("artifact lacks %q (a path was not exercised):\n%s", want, text)
		}
	}
}

func TestCheck(t *testing.T) {
	f := OpenFile(filepath.Join(t.TempDir(), "auth.json"))
	_ = f.Set("filed", Entry{Key: NewSecret("v")})
	r := Resolver{LookupEnv: env(map[string]string{"E_KEY": "v"}), File: f}
	got := r.Check([]Spec{{Provider: "envd", Env: []string{"E_KEY"}}, {Provider: "filed", Env: []string{"F_KEY"}},
		{Provider: "missing", Env: []string{"M_KEY"}}, {Provider: "local"}})
	want := []struct {
		ok     bool
		source Source
		origin string
	}{{true, SourceEnv, "E_KEY"}, {true, SourceFile, f.Path()}, {false, "", ""}, {true, SourceNone, ""}}
	for i, w := range want {
		if got[i].OK != w.ok || got[i].Source != w.source || got[i].Origin != w.origin {
			t.Errorf("%s: %+v, want %+v", got[i].Provider, got[i], w)
		}
	}
	if !strings.Contains(got[2].Problem, "set M_KEY") {
		t.Errorf("problem %q", got[2].Problem)
	}
}

func TestCredentialLookup(t *testing.T) {
	f := OpenFile(filepath.Join(t.TempDir(), "auth.json"))
	_ = f.Set("acme", Entry{Key: NewSecret(key)})
	spec := Spec{Provider: "acme", Env: []string{"ACME_KEY", "ACME_ALT"}}
	c, err := (&Resolver{LookupEnv: env(nil), File: f}).Resolve(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	look := c.Lookup(spec.Env)
	for _, ref := range spec.Env {
		if v, err := look(ref); err != nil || v != key {
			t.Errorf("%s: %v", ref, err)
		}
	}
	if _, err := look("OTHER"); err == nil || !strings.Contains(err.Error(), `"OTHER" is not one of provider "acme"'s declared secrets (ACME_KEY, ACME_ALT)`) || strings.Contains(err.Error(), key) {
		t.Errorf("undeclared reference: %v", err)
	}
}

// TestAccountBuckets: each account bucket of a provider has its own
// credential; the environment serves only the default account.
func TestAccountBuckets(t *testing.T) {
	f := OpenFile(filepath.Join(t.TempDir(), "auth.json"))
	_ = f.Set("acme@work", Entry{Key: NewSecret("work-key")})
	_ = f.Set("acme@home", Entry{Key: NewSecret("home-key")})
	r := Resolver{LookupEnv: env(map[string]string{"ACME_KEY": "env-key"}), File: f}
	for _, tt := range []struct{ account, want string }{{"", "env-key"}, {"work", "work-key"}, {"home", "home-key"}} {
		c, err := r.Resolve(context.Background(), Spec{Provider: "acme", Env: []string{"ACME_KEY"}, Account: tt.account})
		if err != nil || c.Value.Reveal() != tt.want {
			t.Errorf("account %q: %v", tt.account, err)
		}
	}
	_, err := r.Resolve(context.Background(), Spec{Provider: "acme", Env: []string{"ACME_KEY"}, Account: "play"})
	if err == nil || !strings.Contains(err.Error(), "smith auth set acme@play") || strings.Contains(err.Error(), "set ACME_KEY") {
		t.Errorf("missing bucket: %v", err)
	}
}
