package auth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzFile feeds arbitrary bytes to the auth file reader: it never panics,
// its diagnostics never quote the file, and an update either fails cleanly
// or leaves a file the reader accepts.
func FuzzFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"providers":{"a":{"key":"k","expires":1800000000000}}}`))
	f.Add([]byte(`{"version":1,"providers":{"a":{"key":["x"]}}}`))
	f.Add([]byte(`{"version":2}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "auth.json")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		file := OpenFile(path)
		_, _, err := file.Get("a")
		if err != nil && len(b) >= 12 && strings.Contains(err.Error(), string(b)) {
			t.Fatalf("diagnostic quotes the file: %v", err)
		}
		if err := file.Set("b", Entry{Key: NewSecret("v")}); err != nil {
			return
		}
		if e, ok, err := file.Get("b"); err != nil || !ok || e.Key.Reveal() != "v" {
			t.Fatalf("after a successful update: %v %v", ok, err)
		}
	})
}
