package rusttest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestConsult(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.rs", "with space.rs"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("fn main() {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, spaced := filepath.Join(dir, "a.rs"), strings.ReplaceAll(filepath.Join(dir, "with space.rs"), " ", `\ `)
	for _, tc := range []struct {
		name, deps, wantErr string
	}{
		{"as rustc writes it", "/tmp/x: " + a + " " + spaced + "\n\n/tmp/x.d: " + a + " " + spaced + "\n\n" + a + ":\n" + spaced + ":\n", ""},
		{"with an env-dep comment", "/tmp/x: " + a + "\n\n" + a + ":\n\n# env-dep:X=1\n", ""},
		{"a missing source", "/tmp/x: " + a + ".gone\n\n" + a + ".gone:\n", "a.rs.gone"},
		{"no sources", "\n", "names no source file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			deps := filepath.Join(t.TempDir(), "x.d")
			if err := os.WriteFile(deps, []byte(tc.deps), 0o644); err != nil {
				t.Fatal(err)
			}
			err := consult("/bin/sh", deps)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("consult = %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

// recorder is a testing.TB that records the first failure and ends the
// goroutine, as t.Fatal would, so a test can check a failure's message.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) { r.msg = fmt.Sprint(args...); runtime.Goexit() }

func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestRunTests(t *testing.T) {
	const sample = "testdata/sample.rs"
	RunTests(t, sample)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a failing test", []string{"--cfg", "fail"}, "passes_or_fails_on_request"},
		{"no tests", []string{"--cfg", "none"}, "holds no tests"},
		{"compile error", []string{"--cfg", "broken"}, "mismatched types"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				RunTests(r, sample, tc.args...)
			}()
			<-done
			if !strings.Contains(r.msg, tc.want) {
				t.Fatalf("the failure %q does not say %q", r.msg, tc.want)
			}
		})
	}
}
