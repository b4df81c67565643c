package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// fixtureRoot finds shared/fixtures/providers: it sits beside the
// repository (the directory holding go.work), wherever the repository was
// cloned.
func fixtureRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("conformance: get working directory: %v", err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			root := filepath.Join(d, "..", "shared", "fixtures", "providers")
			if _, err := os.Stat(filepath.Join(root, "README.md")); err != nil {
				t.Fatalf("conformance: provider fixtures not found at %s (expected beside the repository root %s): %v; clone or copy shared/ next to the repository", root, d, err)
			}
			return root
		}
		if filepath.Dir(d) == d {
			t.Fatalf("conformance: no go.work above %s; run the tests inside the Smith repository", dir)
		}
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("conformance: read fixture: %v", err)
	}
	return b
}
