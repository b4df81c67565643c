package rusttest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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
		return "", fmt.Errorf("rusttest: the Rust tests need Debian's %s at %s (it reports %q, error %v); run scripts/deps.sh, or set SMITH_RUSTC to such a rustc",
			rustcVersion, p, bytes.TrimSpace(out), err)
	}
	return p, nil
}

// compile builds root into out with rustc, --edition 2021, -D warnings
// and args. It runs in the test's working directory, so root and the
// driver's #[path] attributes resolve as the test sees them. It then
// reads every source file the build used (and stats rustc), so go test's
// cache, which sees only the files the test process itself consults,
// reruns the test when one of them changes.
func compile(root, out string, args ...string) error {
	p, err := rustc()
	if err != nil {
		return err
	}
	lib, err := libFlags()
	if err != nil {
		return err
	}
	deps := out + ".d"
	all := append([]string{"--edition", "2021", "-D", "warnings", "-o", out, "--emit=link,dep-info=" + deps}, lib...)
	all = append(all, args...)
	all = append(all, root)
	if msg, err := exec.Command(p, all...).CombinedOutput(); err != nil {
		return fmt.Errorf("rusttest: building %s failed (%v); fix the Rust code rustc shows:\n%s %s\n%s", root, err, p, strings.Join(all, " "), msg)
	}
	return consult(p, deps)
}

// libs are the library crates (plugins-src/lib) built for the host by
// tools/pluginbuild -host-libs, which knows them, into a directory named
// after a hash of their sources: built once, then shared by every test
// process and fuzz worker until a source changes (a fuzz worker must not
// spend its first input building them).
var libs struct {
	once  sync.Once
	flags []string
	err   error
}

// libFlags returns the rustc flags that link the library crates.
func libFlags() ([]string, error) {
	libs.once.Do(func() { libs.flags, libs.err = buildLibs() })
	return libs.flags, libs.err
}

func buildLibs() ([]string, error) {
	sum, err := libSources()
	if err != nil {
		return nil, err
	}
	index := filepath.Join(os.TempDir(), "smith-rusttest-libs-"+sum+".flags")
	if b, err := os.ReadFile(index); err == nil {
		return strings.Fields(string(b)), nil
	}
	// Each builder has its own directory, never changed once the index
	// names it, so a concurrent build cannot disturb a reader.
	dir, err := os.MkdirTemp(os.TempDir(), "smith-rusttest-libs-"+sum+"-")
	if err != nil {
		return nil, fmt.Errorf("rusttest: %w", err)
	}
	cmd := exec.Command("go", "run", "github.com/smith-agent/smith/tools/pluginbuild", "-host-libs", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("rusttest: go run tools/pluginbuild -host-libs: %v\n%s", err, stderr.Bytes())
	}
	// Renamed into place: a reader sees all of the index or none.
	part := filepath.Join(dir, "flags")
	if err := os.WriteFile(part, out, 0o644); err != nil {
		return nil, fmt.Errorf("rusttest: %w", err)
	}
	if err := os.Rename(part, index); err != nil {
		return nil, fmt.Errorf("rusttest: %w", err)
	}
	return strings.Fields(string(out)), nil
}

// libSources returns a hash of the library crates' sources (and the
// bindings they include), found above the working directory.
func libSources() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("rusttest: %w", err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.work")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", fmt.Errorf("rusttest: no go.work above %s; run the tests inside the Smith repository", wd)
		}
		root = parent
	}
	h := sha256.New()
	files := []string{filepath.Join(root, "wit", "rust", "smith_plugin.rs")}
	err = filepath.WalkDir(filepath.Join(root, "plugins-src", "lib"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".rs") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return "", fmt.Errorf("rusttest: %w", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("rusttest: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// consult stats rustc and reads each source file the dep-info file deps
// lists (one "path:" line each, spaces escaped), which is how go test
// learns that the test's result depends on them.
func consult(rustc, deps string) error {
	if _, err := os.Stat(rustc); err != nil {
		return fmt.Errorf("rusttest: %w", err)
	}
	info, err := os.ReadFile(deps)
	if err != nil {
		return fmt.Errorf("rusttest: rustc's dependency list: %w", err)
	}
	n := 0
	for _, line := range strings.Split(string(info), "\n") {
		src, ok := strings.CutSuffix(line, ":")
		if !ok || strings.HasPrefix(line, "#") || strings.Contains(strings.ReplaceAll(src, "\\ ", ""), " ") {
			continue // a rule with prerequisites, a comment, or no rule
		}
		if _, err := os.ReadFile(strings.ReplaceAll(src, "\\ ", " ")); err != nil {
			return fmt.Errorf("rusttest: a source file rustc used, listed in %s: %w", deps, err)
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("rusttest: rustc's dependency list %s names no source file:\n%s", deps, info)
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
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		tb.Fatalf("rusttest: the Rust tests in %s failed (%v):\n%s", root, err, out)
	}
	if !bytes.Contains(out, []byte("test result: ok.")) || bytes.Contains(out, []byte("test result: ok. 0 passed")) {
		tb.Fatalf("rusttest: %s holds no tests; add a #[cfg(test)] mod tests with #[test] functions:\n%s", root, out)
	}
}
