package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		path    string
		content string
		perm    os.FileMode
		want    string // error substring; "" means success
	}{
		{name: "create", path: filepath.Join(dir, "a"), content: "one", perm: 0o600},
		{name: "replace", path: filepath.Join(dir, "a"), content: "two", perm: 0o644},
		{name: "missing-directory", path: filepath.Join(dir, "no", "a"), content: "x", perm: 0o600,
			want: "cannot create a temporary file in " + filepath.Join(dir, "no")},
		{name: "over-a-directory", path: dir, content: "x", perm: 0o600, want: "cannot replace " + dir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Replace(tt.path, []byte(tt.content), tt.perm)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Replace = %v; want an error containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(tt.path)
			if err != nil || string(b) != tt.content {
				t.Fatalf("content = %q, %v; want %q", b, err, tt.content)
			}
			if st, _ := os.Stat(tt.path); runtime.GOOS != "windows" && st.Mode().Perm() != tt.perm {
				t.Errorf("mode = %v; want %v", st.Mode().Perm(), tt.perm)
			}
		})
	}
	ents, _ := os.ReadDir(filepath.Dir(filepath.Join(dir, "a")))
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
