package config

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestTrust: trusting a project appends its canonical path to the user's
// file (created 0600 when missing, other bytes kept), makes its file read,
// is idempotent (through a symlink too), refuses to touch an invalid file,
// and concurrent trusts lose none.
func TestTrust(t *testing.T) {
	root, sub := project(t, "model \"project/m\"\n")
	user := filepath.Join(t.TempDir(), "cfg", FileName)
	id, already, err := Trust(user, root)
	if err != nil || already {
		t.Fatalf("Trust = %q, %v, %v", id, already, err)
	}
	if st, err := os.Stat(user); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("created file: %v %v", st, err)
	}
	cfg, err := Load(Inputs{UserFile: user, ProjectDir: sub, LookupEnv: noEnv})
	if err != nil || cfg.Model.Value != "project/m" {
		t.Fatalf("after trust: %v %+v", err, cfg)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	if _, already, err := Trust(user, link); err != nil || !already {
		t.Errorf("trust through a symlink: already %v, %v", already, err)
	}

	// Other bytes are kept; a file without a final newline gets one.
	kept := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(kept, []byte("// mine\nmodel \"a/b\""), 0o640); err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(t.TempDir(), `we"ird\dir`)
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Trust(kept, odd); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(kept)
	if want := "// mine\nmodel \"a/b\"\ntrusted-project \"" + strings.ReplaceAll(strings.ReplaceAll(canonical(odd), `\`, `\\`), `"`, `\"`) + "\"\n"; string(b) != want {
		t.Errorf("file:\n%s\nwant:\n%s", b, want)
	}
	if st, _ := os.Stat(kept); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", st.Mode().Perm())
	}
	_, err = Load(Inputs{UserFile: kept, LookupEnv: noEnv})
	if err != nil {
		t.Fatalf("the edited file does not load: %v", err)
	}

	// An invalid file is not touched.
	bad := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(bad, []byte("modle 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Trust(bad, root); err == nil || !strings.Contains(err.Error(), "is invalid, so it was not changed") {
		t.Errorf("invalid file: %v", err)
	}
	if b, _ := os.ReadFile(bad); string(b) != "modle 1\n" {
		t.Errorf("the invalid file changed: %q", b)
	}
	if _, _, err := Trust(bad, filepath.Join(root, "nope")); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("missing dir: %v", err)
	}

	// Concurrent trusts of different projects all land.
	many := filepath.Join(t.TempDir(), FileName)
	var wg sync.WaitGroup
	dirs := make([]string, 8)
	for i := range dirs {
		dirs[i] = t.TempDir()
		wg.Add(1)
		go func(d string) {
			defer wg.Done()
			if _, _, err := Trust(many, d); err != nil {
				t.Error(err)
			}
		}(dirs[i])
	}
	wg.Wait()
	b, _ = os.ReadFile(many)
	for _, d := range dirs {
		if !strings.Contains(string(b), canonical(d)) {
			t.Errorf("lost the trust of %s:\n%s", d, b)
		}
	}
}
