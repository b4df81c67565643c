package pluginpkg_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// shoutPackage is the test plugin (testdata/shout): one tool, shout.
const shoutPackage = "./testdata/shout"

var (
	buildOnce sync.Once
	buildDir  string
	shoutWasm []byte
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// shout returns the built test plugin, built once with the standard
// toolchain.
func shout(tb testing.TB) []byte {
	tb.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "pluginpkg-"); buildErr != nil {
			return
		}
		out := filepath.Join(buildDir, "shout.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, shoutPackage)
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			buildErr = errors.New("go build " + shoutPackage + ": " + err.Error() + "\n" + string(msg))
			return
		}
		shoutWasm, buildErr = os.ReadFile(out)
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return shoutWasm
}

// writePackage writes a package directory under t's temp dir: manifest
// text and the artifact bytes at artifact.
func writePackage(tb testing.TB, manifest, artifact string, wasm []byte) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "pkg")
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, artifact)), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugin.kdl"), []byte(manifest), 0o644); err != nil {
		tb.Fatal(err)
	}
	if wasm != nil {
		if err := os.WriteFile(filepath.Join(dir, artifact), wasm, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

const shoutManifest = `name "shout"
version "0.1.0"
world "0.0.0"
artifact "shout.wasm"
`

// fakeWasm is the smallest valid module header.
var fakeWasm = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
