package conformance

import (
	"os"
	"testing"
)

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("conformance: read fixture: %v", err)
	}
	return b
}
