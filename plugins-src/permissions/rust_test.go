package permissions_test

import (
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rusttest"
)

// TestRustUnitTests runs the crate's own tests (src/tests.rs): the
// declaration, the configuration's and the event's parsing, the glob
// and the decisions of every mode and rule.
func TestRustUnitTests(t *testing.T) {
	rusttest.RunTests(t, filepath.Join("src", "lib.rs"))
}
