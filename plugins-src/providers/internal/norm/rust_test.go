package norm_test

import (
	"os"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// TestRustUnit runs the Rust port's own tests (norm.rs, mod tests).
func TestRustUnit(t *testing.T) {
	rustdriver.RunTests(t, "norm.rs")
}
