package atomicfile

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name     string
		existing bool
		replace  bool
		fill     error
		want     string // content afterwards, "" for no file
		wantErr  bool
	}{
		{"new file", false, false, nil, "new", false},
		{"fill fails: nothing published", false, false, boom, "", true},
		{"existing kept without replace", true, false, nil, "old", true},
		{"existing replaced", true, true, nil, "new", false},
		{"fill fails: old content kept", true, true, boom, "old", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "s.session")
			if tt.existing {
				os.WriteFile(p, []byte("old"), 0o600)
			}
			err := Write(p, 0o640, tt.replace, func(w *bufio.Writer) error {
				w.WriteString("new")
				return tt.fill
			})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v", err)
			}
			got, rerr := os.ReadFile(p)
			if tt.want == "" && !errors.Is(rerr, fs.ErrNotExist) || tt.want != "" && string(got) != tt.want {
				t.Fatalf("content %q (%v), want %q", got, rerr, tt.want)
			}
			ents, _ := os.ReadDir(dir)
			if n := len(ents); n > 1 || n == 1 && ents[0].Name() != "s.session" {
				t.Fatalf("temporary files left: %v", ents)
			}
			if tt.want == "new" {
				st, _ := os.Stat(p)
				if st.Mode().Perm() != 0o640 {
					t.Fatalf("perm %v", st.Mode().Perm())
				}
			}
		})
	}
}
