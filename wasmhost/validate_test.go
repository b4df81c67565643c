package wasmhost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden diagnostics under testdata/refuse")

// TestRefusedArtifacts compiles each testdata/refuse/*.wat and compares the
// diagnostic with its golden file. Every refusal must name the offending
// item, what was expected and the fix.
func TestRefusedArtifacts(t *testing.T) {
	tests := []struct {
		name string
		item string // must appear in the diagnostic
	}{
		{name: "socket", item: `import "wasi_snapshot_preview1" "sock_accept"`},
		{name: "import-signature", item: `import "test:echo/host@0.1.0" "greet"`},
		{name: "version", item: `targets test:echo@0.2.0`},
		{name: "no-realloc", item: `export "cabi_realloc"`},
		{name: "unknown-export", item: `export "launch-missiles"`},
		{name: "reserved-export", item: `export "test:secrets/store@1.0.0#steal": is an interface of the test: namespace, which is reserved`},
		{name: "export-signature", item: `export "test:echo/api@0.1.0#echo"`},
		{name: "imported-memory", item: `import "env" "memory"`},
		{name: "missing-export", item: `export "test:echo/api@0.1.0#echo": is missing`},
		{name: "reserved-import", item: `import "wasmhost" "yield"`},
		{name: "big-memory", item: "declares 1000 initial pages"},
		{name: "ungranted", item: "capability this plugin was not granted"},
		{name: "post-signature", item: `export "cabi_post_test:echo/api@0.1.0#echo"`},
		{name: "initialize", item: `export "_initialize"`},
		{name: "several", item: "problems"},
		{name: "global-export", item: `export "counter": exports a global`},
	}
	e := newEngine(t, Config{})
	// greet is not granted: only tick is implemented.
	hosts := []HostModule{{Name: hostMod, Funcs: []HostFuncDef{
		{Name: "tick", Fn: func(context.Context, *Call, []uint64) error { return nil }},
	}}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wasm := wat(t, "refuse/"+tt.name)
			_, err := e.Compile(context.Background(), Artifact{Name: tt.name, Reader: bytes.NewReader(wasm)},
				PluginConfig{World: testWorld(), Hosts: hosts, Budgets: Budgets{MemoryPages: 160}})
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v (%T), want a *ValidationError", err, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.item) {
				t.Fatalf("diagnostic does not mention %q:\n%s", tt.item, msg)
			}
			for _, p := range ve.Problems {
				if p.Item == "" || p.Got == "" || p.Fix == "" {
					t.Fatalf("problem without item, finding or fix: %+v", p)
				}
			}
			golden(t, filepath.Join("testdata", "refuse", tt.name+".golden"), msg+"\n")
		})
	}
}

// TestLinkerGlobalsAccepted loads a guest exporting wasm-ld's layout
// globals, as a Rust or C cdylib does.
func TestLinkerGlobalsAccepted(t *testing.T) {
	e := newEngine(t, Config{})
	hosts := []HostModule{{Name: hostMod, Funcs: []HostFuncDef{
		{Name: "tick", Fn: func(context.Context, *Call, []uint64) error { return nil }},
	}}}
	p, err := e.Compile(context.Background(), Artifact{Name: "linked", Reader: bytes.NewReader(wat(t, "linker-globals"))},
		PluginConfig{World: testWorld(), Hosts: hosts, Budgets: Budgets{MemoryPages: 160}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	if !p.HasExport("test:echo/api@0.1.0#echo") {
		t.Error("the world export is missing")
	}
}

// golden compares got with the file, or rewrites it under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Fatalf("diagnostic differs from %s (run go test -update if intended):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestArtifactBounds checks the size bound, the declared size and the pin,
// all before the module is decoded, for an artifact read from a Reader and
// for one handed over in memory (Bytes).
func TestArtifactBounds(t *testing.T) {
	wasm := wat(t, "guest")
	sum := sha256.Sum256(wasm)
	pin := hex.EncodeToString(sum[:])
	tests := []struct {
		name string
		a    Artifact
		want string // "" means accepted
	}{
		{name: "within the bound", a: Artifact{MaxBytes: int64(len(wasm))}},
		{name: "pinned", a: Artifact{SHA256: pin, Size: int64(len(wasm))}},
		{name: "pinned uppercase", a: Artifact{SHA256: strings.ToUpper(pin)}},
		{name: "over the bound", a: Artifact{MaxBytes: int64(len(wasm)) - 1},
			want: "is larger than " + itoa(len(wasm)-1) + " bytes"},
		{name: "declared over the bound", a: Artifact{MaxBytes: 100, Size: 1 << 40},
			want: "declares 1099511627776 bytes; expected at most 100 bytes"},
		{name: "declared size wrong", a: Artifact{Size: int64(len(wasm)) + 1},
			want: "has " + itoa(len(wasm)) + " bytes; expected the declared " + itoa(len(wasm)+1)},
		{name: "pin mismatch", a: Artifact{SHA256: strings.Repeat("0", 64)},
			want: "has SHA-256 " + pin + "; expected the pinned 000"},
		{name: "verified", a: Artifact{SHA256: pin, Verified: true, Size: int64(len(wasm))}},
		// Verified hands the check to the caller: the bytes are not hashed
		// again, so a wrong pin is not noticed here (core/plugin refuses it
		// before compiling).
		{name: "verified pin is trusted", a: Artifact{SHA256: strings.Repeat("0", 64), Verified: true}},
		{name: "verified without a pin", a: Artifact{Verified: true},
			want: `is marked Verified with SHA256 ""; expected a 64-digit hex SHA-256 pin`},
		{name: "verified short pin", a: Artifact{SHA256: pin[:62], Verified: true},
			want: "is marked Verified with SHA256"},
		{name: "verified long pin", a: Artifact{SHA256: pin + "00", Verified: true},
			want: "is marked Verified with SHA256"},
		{name: "verified non-hex pin", a: Artifact{SHA256: strings.Repeat("g", 64), Verified: true},
			want: "is marked Verified with SHA256"},
	}
	e := newEngine(t, Config{})
	for _, tt := range tests {
		for _, via := range []string{"reader", "bytes"} {
			t.Run(tt.name+"/"+via, func(t *testing.T) {
				var read atomic.Int64
				a := tt.a
				a.Name = "bounded"
				a.Reader = &countingReader{r: bytes.NewReader(wasm), n: &read}
				if tt.name == "declared over the bound" {
					a.Reader = endless{}
				}
				if via == "bytes" {
					a.Reader, a.Bytes = nil, wasm
				}
				p, err := e.Compile(context.Background(), a, PluginConfig{World: testWorld(), Hosts: testHosts(new(atomic.Int64))})
				if tt.want == "" {
					if err != nil {
						t.Fatal(err)
					}
					p.Close(context.Background())
					return
				}
				var ve *ValidationError
				if !errors.As(err, &ve) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want a refusal mentioning %q", err, tt.want)
				}
				if a.MaxBytes > 0 && read.Load() > a.MaxBytes+1 {
					t.Fatalf("read %d bytes with a bound of %d", read.Load(), a.MaxBytes)
				}
			})
		}
	}
}

// TestArtifactNeverMaterializedPastBound feeds an endless reader.
func TestArtifactNeverMaterializedPastBound(t *testing.T) {
	e := newEngine(t, Config{})
	var read atomic.Int64
	_, err := e.Compile(context.Background(), Artifact{Name: "endless", Reader: &countingReader{r: endless{}, n: &read}, MaxBytes: 1 << 20},
		PluginConfig{World: testWorld()})
	if err == nil || !strings.Contains(err.Error(), "is larger than 1048576 bytes") {
		t.Fatalf("error %v", err)
	}
	if read.Load() > 1<<20+1 {
		t.Fatalf("read %d bytes past a bound of 1 MiB", read.Load())
	}
}

func TestNotAModule(t *testing.T) {
	e := newEngine(t, Config{})
	_, err := e.Compile(context.Background(), Artifact{Name: "junk", Reader: strings.NewReader("\x00asm\x0d\x00\x01\x00garbage")}, PluginConfig{World: testWorld()})
	if err == nil || !strings.Contains(err.Error(), "is not a valid core WebAssembly module") || !strings.Contains(err.Error(), "not a component") {
		t.Fatalf("error %v", err)
	}
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n *atomic.Int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n.Add(int64(n))
	return n, err
}

type endless struct{}

func (endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'x'
	}
	return len(b), nil
}

func itoa(n int) string { return strconv.Itoa(n) }
