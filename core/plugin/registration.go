package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/internal/pluginabi"
)

// registrationKey names a cached registration: the same bytes, grants,
// world version and configuration declare the same contributions
// (declaring has no effects and sees only the world version and the
// configuration). An artifact without a configuration keeps the key it
// had before configurations existed, so registrations computed ahead for
// "{}" stay valid.
func registrationKey(a Artifact) string {
	grants := slices.Clone(a.Grants)
	slices.Sort(grants)
	id := WorldVersion + "\x00" + a.SHA256 + "\x00" + strings.Join(grants, ",")
	if a.Configuration != "" && a.Configuration != "{}" {
		id += "\x00" + a.Configuration
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

// ahead is a registration computed ahead ([Host.Register]): the key it
// was computed for and the contributions.
type ahead struct {
	Key           string                  `json:"key"`
	Contributions pluginabi.Contributions `json:"contributions"`
}

// Register computes the registration of a, for [Artifact.Registration]:
// it verifies the pin, compiles the plugin (interpreted; nothing is
// optimized or kept), calls declare-contributions and returns the result
// with the key it holds for (a's bytes, grants and the world version).
func (h *Host) Register(ctx context.Context, a Artifact) ([]byte, error) {
	if err := checkArtifact(a, map[string]bool{}); err != nil {
		return nil, err
	}
	key := registrationKey(a)
	l := &loaded{host: h, art: a}
	c, err := l.register(ctx, key)
	l.close()
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(ahead{Key: key, Contributions: c})
	if err != nil {
		return nil, fmt.Errorf("plugin: encode the registration of %q: %w", a.Name, err)
	}
	return b, nil
}

// registrationAhead returns a's registration computed ahead, if it has
// one for key.
func registrationAhead(a Artifact, key string) (pluginabi.Contributions, bool) {
	if len(a.Registration) == 0 {
		return pluginabi.Contributions{}, false
	}
	var r ahead
	if json.Unmarshal(a.Registration, &r) != nil || r.Key != key {
		return pluginabi.Contributions{}, false
	}
	return r.Contributions, true
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
