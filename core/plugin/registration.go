package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// registrationKey names a cached registration: the same bytes, grants and
// world version declare the same contributions (declaring has no effects
// and sees only the world version and an empty configuration).
func registrationKey(a Artifact) string {
	grants := slices.Clone(a.Grants)
	slices.Sort(grants)
	sum := sha256.Sum256([]byte(WorldVersion + "\x00" + a.SHA256 + "\x00" + strings.Join(grants, ",")))
	return hex.EncodeToString(sum[:16])
}

// cachedRegistration returns the cached contributions under key. A missing
// or unreadable entry is a miss.
func (h *Host) cachedRegistration(key string) (pluginabi.Contributions, bool) {
	var c pluginabi.Contributions
	if h.contrib == "" {
		return c, false
	}
	b, err := os.ReadFile(filepath.Join(h.contrib, key+".json"))
	if err != nil || json.Unmarshal(b, &c) != nil {
		return pluginabi.Contributions{}, false
	}
	return c, true
}

// cacheRegistration stores c under key, atomically; failures only cost a
// later cache miss.
func (h *Host) cacheRegistration(key string, c pluginabi.Contributions) {
	if h.contrib == "" {
		return
	}
	b, err := json.Marshal(c)
	if err != nil || os.MkdirAll(h.contrib, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(h.contrib, key+".*.tmp")
	if err != nil {
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil && cerr == nil {
		err = os.Rename(f.Name(), filepath.Join(h.contrib, key+".json"))
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
}
