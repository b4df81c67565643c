package scaffold

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestWrite freezes each language's file list (testdata/LANG.golden) and
// checks that every template was filled.
func TestWrite(t *testing.T) {
	for _, lang := range Languages {
		t.Run(lang, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "my-plugin")
			files, err := Write(dir, lang, NewData("my-plugin", "0.0.0"))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(files, "\n") + "\n"
			golden := filepath.Join("testdata", lang+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("files differ from %s (go test -update):\n%s", golden, got)
			}
			for _, f := range files {
				if strings.HasSuffix(f, "_test.go") && strings.HasPrefix(f, "wit/") {
					t.Errorf("%s: the API's own tests were copied", f)
				}
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(f, "wit/") || f == "src/smith_plugin.rs" {
					continue
				}
				if s := string(b); strings.Contains(s, "[[.") || !strings.Contains(s, "my-plugin") && !strings.Contains(s, "my_plugin") && f != "main_test.go" {
					t.Errorf("%s is not filled in:\n%s", f, s)
				}
			}
			if st, err := os.Stat(filepath.Join(dir, "build.sh")); err != nil || st.Mode()&0o100 == 0 {
				t.Errorf("build.sh is not executable: %v", err)
			}
		})
	}
}

func TestWriteRefusals(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, lang, want string
	}{
		{name: "language", dir: filepath.Join(t.TempDir(), "x"), lang: "cobol", want: `language "cobol" is not one of go, rust`},
		{name: "not empty", dir: full, lang: "go", want: "already exists and is not empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Write(tt.dir, tt.lang, NewData("x", "0.0.0"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

func TestNewData(t *testing.T) {
	d := NewData("a-b", "0.0.0")
	if d.Tool != "a_b_reverse" || d.Crate != "a_b" || d.Go == "" || strings.Contains(d.Go, " ") {
		t.Fatalf("%+v", d)
	}
}
