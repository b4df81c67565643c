package jsonout_test

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

// TestRustUnitTests runs jsonout.rs's own tests: escaping, float
// formatting, raw compaction and its errors, the Writer's commas, sorting
// and failure behaviour.
func TestRustUnitTests(t *testing.T) {
	rustdriver.RunTests(t, "jsonout.rs")
}
