package wasmhost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// preArtifact is wasm instrumented ahead of time and pinned, as
// tools/pluginbuild ships the system plugins.
func preArtifact(tb testing.TB, name string, raw []byte) Artifact {
	tb.Helper()
	pre, err := Instrument(raw)
	if err != nil {
		tb.Fatal(err)
	}
	sum := sha256.Sum256(pre)
	return Artifact{Name: name, Reader: bytes.NewReader(pre), Size: int64(len(pre)), SHA256: hex.EncodeToString(sum[:]),
		Verified: true, Instrumented: InstrumentationVersion()}
}

// TestInstrumentAheadOfTime: Instrument produces exactly what Compile
// instruments and caches itself; a pre-instrumented artifact compiles
// without touching the instrumented-module cache, and its fuel and call
// budgets are enforced as for one Compile instrumented.
func TestInstrumentAheadOfTime(t *testing.T) {
	for _, guest := range guests {
		t.Run(guest.name, func(t *testing.T) {
			raw := guest.build(t)
			dir := t.TempDir()
			e := newEngine(t, Config{CacheDir: dir})
			compile(t, e, "raw", raw, PluginConfig{})
			cached, _ := filepath.Glob(filepath.Join(dir, instrumentedDir(), "*.wasm"))
			if len(cached) != 1 {
				t.Fatalf("instrumented cache: %v", cached)
			}
			b, _ := os.ReadFile(cached[0])
			pre, err := Instrument(raw)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(pre, b[:len(b)-4]) {
				t.Fatal("Instrument's output differs from what Compile instruments")
			}
			if again, _ := Instrument(raw); !bytes.Equal(again, pre) {
				t.Fatal("Instrument is not deterministic")
			}

			dir2 := t.TempDir()
			e2 := newEngine(t, Config{CacheDir: dir2})
			p, err := e2.Compile(context.Background(), preArtifact(t, "pre", raw),
				PluginConfig{World: testWorld(), Hosts: testHosts(new(atomic.Int64)), Budgets: Budgets{Fuel: 5_000_000, Timeout: time.Minute, MemoryPages: 160}})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close(context.Background())
			if m, _ := filepath.Glob(filepath.Join(dir2, instrumentedDir(), "*")); len(m) != 0 {
				t.Errorf("a pre-instrumented artifact was cached again: %v", m)
			}
			_, in := acquire(t, p)
			if got, err := callString(context.Background(), in, ex+"echo", "hi"); err != nil || got != "hi" {
				t.Fatalf("echo = %q, %v", got, err)
			}
			err = in.Invoke(context.Background(), ex+"forever", nil, nil)
			in.Release()
			if he := asError(t, err); he.Budget != BudgetFuel || !strings.Contains(err.Error(), "used all 5000000 fuel units") {
				t.Fatalf("a spinning pre-instrumented guest: %v; want the fuel budget", err)
			}
		})
	}
}

// TestInstrumentedRefused: Compile trusts Artifact.Instrumented only on a
// verified pin of this build's instrumentation, and checks the module
// really carries the instrumentation.
func TestInstrumentedRefused(t *testing.T) {
	raw := wat(t, "guest")
	pre := preArtifact(t, "pre", raw)
	preBytes, _ := Instrument(raw)
	rawSum := sha256.Sum256(raw)
	tests := []struct {
		name string
		art  Artifact
		want string
	}{
		{name: "not-verified", art: func() Artifact { a := pre; a.Verified = false; return a }(),
			want: "is marked Instrumented (" + InstrumentationVersion() + ") but not Verified"},
		{name: "other-version", art: func() Artifact { a := pre; a.Instrumented = "fuel-v2-0000000000000000"; return a }(),
			want: "was instrumented by fuel-v2-0000000000000000; expected this build's instrumentation " + InstrumentationVersion()},
		{name: "claims-but-is-raw", art: Artifact{Name: "pre", Reader: bytes.NewReader(raw), SHA256: hex.EncodeToString(rawSum[:]), Verified: true,
			Instrumented: InstrumentationVersion()}, want: `is marked Instrumented but lacks the instrumentation's "yield"`},
		{name: "instrumented-but-not-declared", art: Artifact{Name: "pre", Reader: bytes.NewReader(preBytes)},
			want: `uses the reserved module name wasmhost`},
	}
	e := newEngine(t, Config{CacheDir: t.TempDir()})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.art
			if r, ok := a.Reader.(*bytes.Reader); ok {
				r.Seek(0, 0)
			}
			_, err := e.Compile(context.Background(), a, PluginConfig{World: testWorld(), Hosts: testHosts(new(atomic.Int64))})
			var ve *ValidationError
			if !errors.As(err, &ve) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Compile = %v; want a validation error containing %q", err, tt.want)
			}
		})
	}
	if _, err := Instrument([]byte("\x00asm\x01\x00\x00\x00\x05")); err == nil || !strings.HasPrefix(err.Error(), "wasmhost: instrument: ") {
		t.Errorf("Instrument of a truncated module = %v", err)
	}
}
