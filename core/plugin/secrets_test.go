package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/model"
)

// vaultArtifact is testdata/vaultguest as the plugin "vault", granted
// secrets with stores.
func vaultArtifact(tb testing.TB, stores ...string) Artifact {
	tb.Helper()
	b := guestWasm(tb, "vaultguest")
	sum := sha256.Sum256(b)
	return Artifact{Name: "vault", Wasm: b, SHA256: hex.EncodeToString(sum[:]), Grants: []string{"secrets"}, Stores: stores}
}

// memStore is a SecretStore in memory.
type memStore struct {
	mu      sync.Mutex
	values  map[string]string
	expires map[string]time.Time
	from    map[string]string
}

func (m *memStore) StoreSecret(_ context.Context, plugin, name, value string, expires time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.values[name], m.expires[name], m.from[name] = value, expires, plugin
	return nil
}

func (m *memStore) HasSecret(_ context.Context, name string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.values[name]
	return ok, nil
}

// TestSecretsCapability: a plugin granted secrets stores and checks the
// names its grant lists, through the host's SecretStore, with the
// expiry; any other name is name-denied; a value too short to redact is
// refused; without a store every call is a storage failure.
func TestSecretsCapability(t *testing.T) {
	build(t) // for buildDir, the shared cache
	store := &memStore{values: map[string]string{}, expires: map[string]time.Time{}, from: map[string]string{}}
	vault := func(t *testing.T, s SecretStore, args string) map[string]any {
		t.Helper()
		h, err := Open(context.Background(), Config{CacheDir: filepath.Join(buildDir, "cache"), Secrets: s})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close(context.Background())
		g, err := h.Load(context.Background(), []Artifact{vaultArtifact(t, "toy-token")})
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		w := newBench(t, g, Effects{})
		res, err := w.tools["vault"].Execute(context.Background(), &agent.Call{ID: "c1", Name: "vault", Arguments: json.RawMessage(args)})
		if err != nil || res.IsError {
			t.Fatalf("vault: %+v %v", res, err)
		}
		var out map[string]any
		if err := json.Unmarshal([]byte(model.TextOf(res.Content)), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := vault(t, store, `{"name":"toy-token","value":"tok-0123456789","expires_ms":1893456000000,"check":"toy-token"}`)
	if got["stored"] != true || got["has"] != true {
		t.Fatalf("store and check: %v", got)
	}
	if store.values["toy-token"] != "tok-0123456789" || store.from["toy-token"] != "vault" || store.expires["toy-token"].UnixMilli() != 1893456000000 {
		t.Fatalf("the store holds %v from %v until %v", store.values, store.from, store.expires)
	}
	got = vault(t, store, `{"name":"other","value":"tok-0123456789","check":"GITHUB_TOKEN"}`)
	if f, _ := got["store_fault"].(string); got["stored"] == true || !strings.Contains(f, "name-denied: other (the plugin may store: toy-token") {
		t.Fatalf("an ungranted store: %v", got)
	}
	if f, _ := got["check_fault"].(string); !strings.Contains(f, "name-denied: GITHUB_TOKEN") {
		t.Fatalf("an ungranted check: %v", got)
	}
	if _, ok := store.values["other"]; ok {
		t.Fatal("the ungranted secret was stored")
	}
	got = vault(t, store, `{"name":"toy-token","value":"short"}`)
	if f, _ := got["store_fault"].(string); !strings.Contains(f, "is 5 bytes long") {
		t.Fatalf("a short value: %v", got)
	}
	got = vault(t, nil, `{"check":"toy-token"}`)
	if f, _ := got["check_fault"].(string); !strings.Contains(f, "storage-failure: this host keeps no secrets") {
		t.Fatalf("no store: %v", got)
	}
}
