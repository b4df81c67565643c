package conformance_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// repoRoot is the repository root, relative to this package's directory.
const repoRoot = "../../../../.."

// TestJcoComponent is the independent second host: jco embeds the
// conformance world into the Go guest artifact, componentizes it (which
// checks every core import and export against the WIT), transpiles it, and
// Node runs the same scenarios as the suite. jco and Node are installed by
// scripts/deps.sh; this test does not skip.
func TestJcoComponent(t *testing.T) {
	t.Parallel()
	goGuest, _ := guests(t)
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	jco := filepath.Join(root, "tools", "jco", "node_modules", ".bin", "jco")
	if _, err := os.Stat(jco); err != nil {
		t.Fatalf("jco is not installed (%v): run scripts/deps.sh", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node not found: run scripts/deps.sh")
	}
	dir := t.TempDir()
	copyFile(t, filepath.Join(dir, "guest.wasm"), goGuest)
	for _, name := range []string{"host.js", "run.mjs"} {
		copyFile(t, filepath.Join(dir, name), readFile(t, filepath.Join("testdata", "jco", name)))
	}
	copyFile(t, filepath.Join(dir, "package.json"), []byte(`{"type":"module"}`))
	witFiles, err := filepath.Glob(filepath.Join(root, "wit", "internal", "conformance", "wit", "*.wit"))
	if err != nil || len(witFiles) == 0 {
		t.Fatalf("conformance WIT not found: %v", err)
	}
	for _, f := range witFiles {
		copyFile(t, filepath.Join(dir, "wit", filepath.Base(f)), readFile(t, f))
	}
	copyFile(t, filepath.Join(dir, "adapter-wit", "adapter.wit"), readFile(t, filepath.Join("testdata", "jco", "adapter", "adapter.wit")))

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	preopen := "--import=" + filepath.Join(root, "tools", "jco", "preopen.mjs")
	run := func(name string, args ...string) []byte {
		t.Helper()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "NODE_OPTIONS="+preopen)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", filepath.Base(name), args, err, out)
		}
		return out
	}
	run("wat2wasm", filepath.Join(mustAbs(t, "testdata"), "jco", "adapter", "adapter.wat"), "-o", "adapter.core.wasm")
	run(jco, "embed", "--wit", "adapter-wit", "-n", "adapter", "adapter.core.wasm", "-o", "adapter.wasm")
	run(jco, "embed", "--wit", "wit", "-n", "conformance", "guest.wasm", "-o", "guest.embed.wasm")
	run(jco, "new", "guest.embed.wasm", "--adapt", "wasi_snapshot_preview1=adapter.wasm", "-o", "guest.component.wasm")
	run(jco, "transpile", "guest.component.wasm", "-o", "out", "--map", "smith:conformance/host@0.0.0=../host.js")
	cmd := exec.CommandContext(ctx, node, "run.mjs")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node run.mjs: %v\n%s", err, out)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node output is not JSON: %v\n%s", err, out)
	}
	fault := func(tag string, val any) map[string]any { return map[string]any{"tag": tag, "val": val} }
	want := map[string]any{
		"bundleSame":     true,
		"emptyName":      fault("invalid", "empty name"),
		"probeText":      6.0,
		"tooLarge":       fault("too-large", 8.0),
		"invalid":        fault("invalid", ""),
		"probeShape":     "tri✓",
		"probeShapeNone": nil,
		"countWith":      "8",
		"counterValue":   "8",
		"openCounter":    "42",
		"score":          "1099511629785",
		"scoreNone":      "3003",
		"drainEmpty":     fault("invalid", "acc-1"),
		"push1":          2.0,
		"push2":          3.0,
		"drain":          []any{"c"},
	}
	for k, w := range want {
		if !reflect.DeepEqual(got[k], w) {
			t.Errorf("%s = %#v; want %#v", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("node reported %d results; want %d: %s", len(got), len(want), out)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func copyFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
