package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/internal/secret"
)

func TestPluginLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "plugins.log")
	l := newPluginLog(path)
	l.now = func() time.Time { return time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC) }
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the log exists before the first write")
	}
	for _, w := range []string{"plugin a: info: one\n", "plugin a: out: par", "tial\nplugin b: warn: two\n"} {
		if n, err := l.Write([]byte(w)); n != len(w) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "2026-12-06T08:00:00.000Z plugin a: info: one\n2026-12-06T08:00:00.000Z plugin a: out: partial\n2026-12-06T08:00:00.000Z plugin b: warn: two\n"
	if string(b) != want {
		t.Fatalf("log:\n%s\nwant:\n%s", b, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
	// Past the limit it rotates at a line's end.
	line := strings.Repeat("x", 1000) + "\n"
	for range PluginLogLimit/len(line) + 1 {
		_, _ = l.Write([]byte(line))
	}
	_, _ = l.Write([]byte("after\n"))
	l.close()
	old, err := os.Stat(path + ".1")
	if err != nil || old.Size() < PluginLogLimit {
		t.Fatalf("rotated file: %v %v", old, err)
	}
	if b, _ := os.ReadFile(path); !strings.HasSuffix(string(b), " after\n") || len(b) >= PluginLogLimit/2 {
		t.Fatalf("the file after rotation holds %d bytes and ends %q", len(b), b[max(0, len(b)-40):])
	}
}

// TestPluginLogRedacts: a secret a plugin logs is written as its
// reference, also when it arrives split across writes, and a line left
// unfinished is written (redacted) at close.
func TestPluginLogRedacts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plugins.log")
	var set secret.Set
	if err := set.Add(secret.Secret{Name: "TOKEN", Value: "s3cr3t-value-123456"}); err != nil {
		t.Fatal(err)
	}
	l := newPluginLog(path)
	l.redact = func(b []byte) []byte { r, _ := set.Redact(b); return r }
	_, _ = l.Write([]byte("plugin a: info: the token is s3cr3t-value-123456\n"))
	// Written to stdout in pieces, the secret is still caught.
	for _, w := range []string{"the token is s3cr", "3t-val", "ue-123456 again\n", "and unfinished: s3cr3t-value-123456"} {
		_, _ = l.Write([]byte(w))
	}
	l.close()
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), "s3cr") || strings.Count(string(b), "${secret:TOKEN}") != 3 || !strings.HasSuffix(string(b), "unfinished: ${secret:TOKEN}\n") {
		t.Fatalf("log: %s", b)
	}
}

// TestPluginLogUnwritable: a log that cannot be opened drops the records
// and never fails the write.
func TestPluginLogUnwritable(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "logs"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l := newPluginLog(filepath.Join(dir, "logs", "plugins.log"))
	if n, err := l.Write([]byte("x\n")); n != 2 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
}
