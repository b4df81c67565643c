package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// secretsOf renders f's secrets as sorted NAME=VALUE lines, failing the
// test on an error.
func secretsOf(t *testing.T, f *File) string {
	t.Helper()
	m, err := f.Secrets()
	if err != nil {
		t.Fatal(err)
	}
	if m == nil {
		t.Fatal("Secrets returned a nil map")
	}
	var out []string
	for name, v := range m {
		out = append(out, name+"="+v.Reveal())
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// wantPrivate fails the test unless the file at path has mode 0600.
func wantPrivate(t *testing.T, path string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %04o, want 0600", st.Mode().Perm())
	}
}

// TestSecretsEdits: each edit of the user's secrets, applied in order to
// one file, leaves the secrets listed (as read by a fresh File on the same
// path), reports whether a deletion found its secret, keeps the provider
// entries and keeps the file 0600.
func TestSecretsEdits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dir", "auth.json")
	f := OpenFile(path)
	if got := secretsOf(t, f); got != "" {
		t.Fatalf("a missing file has secrets %q", got)
	}
	steps := []struct {
		name      string
		do        func() (found bool, err error)
		wantFound bool
		secrets   string
		providers string
	}{
		{name: "first secret", do: set(f, "GH", "ghp_0123456789abcdef"),
			secrets: "GH=ghp_0123456789abcdef"},
		{name: "provider key beside it", do: func() (bool, error) { return false, f.Set("acme", Entry{Key: NewSecret(key)}) },
			secrets: "GH=ghp_0123456789abcdef", providers: "acme=" + key},
		{name: "second secret, escaped in JSON", do: set(f, "db.pass-1", "p<a>&ss\"w\\o\nrd\u00e9"),
			secrets: "GH=ghp_0123456789abcdef db.pass-1=p<a>&ss\"w\\o\nrd\u00e9", providers: "acme=" + key},
		{name: "replace", do: set(f, "GH", "ghp_fedcba9876543210"),
			secrets: "GH=ghp_fedcba9876543210 db.pass-1=p<a>&ss\"w\\o\nrd\u00e9", providers: "acme=" + key},
		{name: "same value again", do: set(f, "GH", "ghp_fedcba9876543210"),
			secrets: "GH=ghp_fedcba9876543210 db.pass-1=p<a>&ss\"w\\o\nrd\u00e9", providers: "acme=" + key},
		{name: "delete", do: del(f, "db.pass-1"), wantFound: true,
			secrets: "GH=ghp_fedcba9876543210", providers: "acme=" + key},
		{name: "delete again", do: del(f, "db.pass-1"),
			secrets: "GH=ghp_fedcba9876543210", providers: "acme=" + key},
		{name: "delete an unknown name", do: del(f, "NOPE"),
			secrets: "GH=ghp_fedcba9876543210", providers: "acme=" + key},
		{name: "provider key deleted", do: func() (bool, error) { return false, f.Delete("acme") },
			secrets: "GH=ghp_fedcba9876543210"},
		{name: "provider key set again", do: func() (bool, error) { return false, f.Set("beta", Entry{Key: NewSecret("beta-key")}) },
			secrets: "GH=ghp_fedcba9876543210", providers: "beta=beta-key"},
		{name: "last secret deleted", do: del(f, "GH"), wantFound: true, providers: "beta=beta-key"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			found, err := s.do()
			if err != nil {
				t.Fatal(err)
			}
			if found != s.wantFound {
				t.Fatalf("found = %v, want %v", found, s.wantFound)
			}
			fresh := OpenFile(path)
			if got := secretsOf(t, fresh); got != s.secrets {
				t.Fatalf("secrets %q, want %q", got, s.secrets)
			}
			provs, err := fresh.Providers()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range provs {
				e, _, err := fresh.Get(p)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, p+"="+e.Key.Reveal())
			}
			if strings.Join(got, " ") != s.providers {
				t.Fatalf("providers %q, want %q", strings.Join(got, " "), s.providers)
			}
			wantPrivate(t, path)
		})
	}
	// With no secret left the file has no "secrets" member, as a file
	// written before secrets existed.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	if _, ok := top["secrets"]; ok {
		t.Errorf("the file keeps an empty secrets member:\n%s", b)
	}
}

func set(f *File, name, v string) func() (bool, error) {
	return func() (bool, error) { return false, f.SetSecret(name, NewSecret(v)) }
}

func del(f *File, name string) func() (bool, error) {
	return func() (bool, error) { return f.DeleteSecret(name) }
}

// TestSecretEditsKeepProviderEntriesVerbatim: a secret edit keeps a
// provider's entry byte for byte (fields this version does not know
// included), and a provider edit keeps the secrets written by hand.
func TestSecretEditsKeepProviderEntriesVerbatim(t *testing.T) {
	path := filepath.Join(t.TempDir(), "auth.json")
	const other = `{"key":"x","plugin_state":{"a":[1,2]}}`
	if err := os.WriteFile(path, []byte(`{"version":1,"providers":{"other":`+other+`},"secrets":{"HAND":"written-by-hand"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f := OpenFile(path)
	if err := f.SetSecret("NEW", NewSecret("new-value-123")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.DeleteSecret("HAND"); err != nil {
		t.Fatal(err)
	}
	var d struct {
		Providers map[string]json.RawMessage
		Secrets   map[string]string
	}
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, d.Providers["other"]); err != nil || compact.String() != other {
		t.Errorf("the provider entry changed: %s", d.Providers["other"])
	}
	if fmt.Sprint(d.Secrets) != "map[NEW:new-value-123]" {
		t.Errorf("secrets on disk %v", d.Secrets)
	}

	if err := f.Set("mine", Entry{Key: NewSecret("y")}); err != nil {
		t.Fatal(err)
	}
	if got := secretsOf(t, f); got != "NEW=new-value-123" {
		t.Errorf("a provider edit changed the secrets: %q", got)
	}
}

// TestSecretRefused: a secret without a name or a value is refused,
// the error naming neither value, and the file is not created.
func TestSecretRefused(t *testing.T) {
	tests := []struct {
		name  string
		sname string
		value string
	}{
		{name: "empty name", value: "some-long-value"},
		{name: "empty value", sname: "TOKEN"},
		{name: "both empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "auth.json")
			f := OpenFile(path)
			err := f.SetSecret(tt.sname, NewSecret(tt.value))
			if err == nil || !strings.Contains(err.Error(), "a secret needs a name and a value") {
				t.Fatalf("SetSecret(%q) = %v; want the refusal", tt.sname, err)
			}
			if tt.value != "" && strings.Contains(err.Error(), tt.value) {
				t.Fatalf("the error shows the value: %v", err)
			}
			if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("a refused secret wrote the file: %v", err)
			}
		})
	}
}

// TestDeleteSecretOfMissingFile: deleting from a file that does not exist
// finds nothing and does not create it.
func TestDeleteSecretOfMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "auth.json")
	found, err := OpenFile(path).DeleteSecret("X")
	if err != nil || found {
		t.Fatalf("DeleteSecret = %v, %v; want not found", found, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the file was created: %v", err)
	}
}

// TestSecretsOfUnreadableFile: Secrets reports a file others may read
// rather than returning what it holds.
func TestSecretsOfUnreadableFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	path := filepath.Join(t.TempDir(), "auth.json")
	if err := os.WriteFile(path, []byte(`{"version":1,"providers":{},"secrets":{"A":"aaaaaaaaaa"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := OpenFile(path).Secrets()
	if err == nil || !strings.Contains(err.Error(), "readable by others") || m != nil {
		t.Fatalf("Secrets = %v, %v; want the mode error", m, err)
	}
	if err := OpenFile(path).SetSecret("B", NewSecret("bbbbbbbbbb")); err == nil {
		t.Fatal("SetSecret wrote a file others may read")
	}
}

// TestConcurrentSecretEdits: secrets set from many goroutines at once
// all land.
func TestConcurrentSecretEdits(t *testing.T) {
	f := OpenFile(filepath.Join(t.TempDir(), "auth.json"))
	var wg sync.WaitGroup
	var want []string
	for i := range 8 {
		name := fmt.Sprintf("S%d", i)
		want = append(want, name+"=value-"+name)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f.SetSecret(name, NewSecret("value-"+name)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := secretsOf(t, f); got != strings.Join(want, " ") {
		t.Fatalf("secrets %q, want %q", got, strings.Join(want, " "))
	}
}
