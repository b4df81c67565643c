package rustdriver

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// RunWasmTests builds root's #[test] functions for wasm32-wasi with the
// plugins' optimization level and features ([WasmFeatures]) and runs them
// under wazero, so code that only a wasm build compiles (the SIMD scanning
// paths) is tested as the plugin runs it. run are the test harness's
// arguments (filters, --skip NAME for a test that needs what wasm32-wasi
// lacks, such as threads). tb fails with the tests' output if one fails (a
// panic aborts the module) or if none ran.
func RunWasmTests(tb testing.TB, root string, run ...string) {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "rust-tests.wasm")
	flags := []string{"--test", "--target", "wasm32-wasi", "-C", "opt-level=s", "-C", "target-feature=" + WasmFeatures}
	if err := compile(root, bin, flags...); err != nil {
		tb.Fatal(err)
	}
	module, err := os.ReadFile(bin)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	var out bytes.Buffer
	cfg := wazero.NewModuleConfig().WithArgs(append([]string{"rust-tests"}, run...)...).WithStdout(&out).WithStderr(&out).
		WithSysWalltime().WithSysNanotime()
	_, err = rt.InstantiateWithConfig(ctx, module, cfg)
	var exit *sys.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 0) {
		tb.Fatalf("rustdriver: the Rust tests in %s failed under wazero (%v):\n%s", root, err, out.Bytes())
	}
	if !bytes.Contains(out.Bytes(), []byte("test result: ok.")) || bytes.Contains(out.Bytes(), []byte("test result: ok. 0 passed")) {
		tb.Fatalf("rustdriver: %s holds no tests for wasm; add a #[cfg(test)] mod tests with #[test] functions:\n%s", root, out.Bytes())
	}
}
