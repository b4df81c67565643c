package product_test

import (
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rusttest"
)

// TestRustUnitTests runs the crate's own tests (src/tests.rs): the
// declarations, the system prompt's facts and rules, the context
// transform against a recording host, the commands and their JSON.
func TestRustUnitTests(t *testing.T) {
	rusttest.RunTests(t, filepath.Join("src", "lib.rs"))
}
