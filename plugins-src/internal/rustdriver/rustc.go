package rustdriver

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rustcVersion is the version tools/pluginbuild builds the plugins with.
const rustcVersion = "rustc 1.63.0"

// rustc returns the compiler to build with: $SMITH_RUSTC, else
// /usr/bin/rustc, after checking that it is version 1.63.0.
func rustc() (string, error) {
	p := os.Getenv("SMITH_RUSTC")
	if p == "" {
		p = "/usr/bin/rustc"
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), rustcVersion) {
		return "", fmt.Errorf("rustdriver: the Rust tests need Debian's %s at %s (it reports %q, error %v); run scripts/deps.sh, or set SMITH_RUSTC to such a rustc",
			rustcVersion, p, bytes.TrimSpace(out), err)
	}
	return p, nil
}

// compile builds root into out with rustc, --edition 2021, -D warnings
// and args. It runs in the test's working directory, so root and the
// driver's #[path] attributes resolve as the test sees them.
func compile(root, out string, args ...string) error {
	p, err := rustc()
	if err != nil {
		return err
	}
	all := append([]string{"--edition", "2021", "-D", "warnings", "-o", out}, args...)
	all = append(all, root)
	if msg, err := tether(exec.Command(p, all...)).CombinedOutput(); err != nil {
		return fmt.Errorf("rustdriver: building %s failed (%v); fix the Rust code rustc shows:\n%s %s\n%s", root, err, p, strings.Join(all, " "), msg)
	}
	return nil
}

// RunTests builds root with --test (and args) and runs the #[test]
// functions it holds; tb fails with their output if one fails or if there
// are none.
func RunTests(tb testing.TB, root string, args ...string) {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "rust-tests")
	if err := compile(root, bin, append([]string{"--test"}, args...)...); err != nil {
		tb.Fatal(err)
	}
	out, err := tether(exec.Command(bin)).CombinedOutput()
	if err != nil {
		tb.Fatalf("rustdriver: the Rust tests in %s failed (%v):\n%s", root, err, out)
	}
	if !bytes.Contains(out, []byte("test result: ok.")) || bytes.Contains(out, []byte("test result: ok. 0 passed")) {
		tb.Fatalf("rustdriver: %s holds no tests; add a #[cfg(test)] mod tests with #[test] functions:\n%s", root, out)
	}
}
