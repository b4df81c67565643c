package guest

import (
	"os"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// TestMain stops the Rust drivers the tests started.
func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}
