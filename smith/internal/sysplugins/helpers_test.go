package sysplugins

import (
	"context"
	"testing"

	"github.com/smith-agent/smith/core/plugin"
)

// testHost opens a plugin host caching under a temporary directory,
// closed with the test.
func testHost(t *testing.T) *plugin.Host {
	t.Helper()
	h, err := plugin.Open(context.Background(), plugin.Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return h
}
