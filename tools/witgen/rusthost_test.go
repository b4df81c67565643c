package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.bytecodealliance.org/wit"

	"github.com/smith-agent/smith/wasmhost"
)

// debianRustc is the compiler the Rust plugins are built with (see
// /work/notes/rust-api.md and tools/pluginbuild): Debian's rustc 1.63 with
// the wasm32-wasi standard library.
const debianRustc = "/usr/bin/rustc"

// rustc returns debianRustc, failing the test with the fix when it or its
// wasm32-wasi standard library is missing: these tests never skip.
func rustc(t *testing.T) string {
	t.Helper()
	if err := checkRustc(debianRustc); err != nil {
		t.Fatal(err)
	}
	return debianRustc
}

// checkRustc reports whether path is a rustc with the wasm32-wasi standard
// library, and if not, how to install one.
func checkRustc(path string) error {
	out, err := exec.Command(path, "--print", "sysroot").Output()
	if err != nil {
		return fmt.Errorf("witgen: %s --print sysroot: %v; the Rust bindings tests need Debian's rustc 1.63 with the wasm32-wasi standard library: run scripts/deps.sh", path, err)
	}
	std := filepath.Join(strings.TrimSpace(string(out)), "lib", "rustlib", "wasm32-wasi")
	if _, err := os.Stat(std); err != nil {
		return fmt.Errorf("witgen: %s has no wasm32-wasi standard library (%v); run scripts/deps.sh (it installs libstd-rust-dev-wasm32)", path, err)
	}
	return nil
}

// runRustc runs rustc with args in dir and fails the test on an error or
// any diagnostic: the bindings must compile warning-free.
func runRustc(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(rustc(t), args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("rustc %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	if stderr.Len() > 0 {
		t.Fatalf("rustc %s: diagnostics; the generated bindings must compile warning-free:\n%s", strings.Join(args, " "), stderr.Bytes())
	}
}

var (
	guestOnce sync.Once
	guestWasm []byte
	guestErr  error
)

// rustGuest builds testdata/rustguest once per test run.
func rustGuest(t *testing.T) []byte {
	t.Helper()
	rustc(t)
	guestOnce.Do(func() { guestWasm, guestErr = buildWasm("testdata/rustguest/src/lib.rs") })
	if guestErr != nil {
		t.Fatal(guestErr)
	}
	return guestWasm
}

// buildWasm builds the crate rooted at lib for wasm32-wasi with the flags
// tools/pluginbuild uses and returns the module as built. Any compiler
// diagnostic is an error.
func buildWasm(lib string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "witgen-rust-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "guest.wasm")
	cmd := exec.Command(debianRustc, "--edition", "2021", "--crate-type", "cdylib", "--crate-name", "guest",
		"--target", "wasm32-wasi", "-C", "opt-level=s", "-C", "panic=abort", "-C", "codegen-units=1", "-C", "lto=fat",
		"-C", "strip=symbols", "-C", "debuginfo=0", "-o", out, lib)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		return nil, fmt.Errorf("build %s: %v\n%s", lib, err, stderr.Bytes())
	}
	return os.ReadFile(out)
}

// valueTypes converts witgen's core types to wasmhost's.
func valueTypes(ts []coreType) []wasmhost.ValueType {
	var out []wasmhost.ValueType
	for _, t := range ts {
		out = append(out, map[coreType]wasmhost.ValueType{coreI32: wasmhost.I32, coreI64: wasmhost.I64, coreF32: wasmhost.F32, coreF64: wasmhost.F64}[t])
	}
	return out
}

// worldSpec is the WorldSpec of m: every import and export with its core
// signature, the resource intrinsics of exported resources, contrib
// required.
func worldSpec(m *model) wasmhost.WorldSpec {
	ws := wasmhost.WorldSpec{Package: m.pkg, Version: m.version}
	i32 := []wasmhost.ValueType{wasmhost.I32}
	for _, in := range m.ifaces {
		for _, f := range in.funcs {
			p, r := coreSignature(f, in.exported)
			sig := wasmhost.Signature{Params: valueTypes(p), Results: valueTypes(r)}
			if in.exported {
				ws.Exports = append(ws.Exports, wasmhost.ExportSpec{Name: in.qualified + "#" + f.Name, Sig: sig, Optional: in.name != "contrib"})
			} else {
				ws.Imports = append(ws.Imports, wasmhost.ImportSpec{Module: in.qualified, Name: f.Name, Sig: sig})
			}
		}
		for _, td := range in.types {
			if _, ok := td.Kind.(*wit.Resource); ok && in.exported {
				ws.Exports = append(ws.Exports, wasmhost.ExportSpec{Name: in.qualified + "#[dtor]" + *td.Name, Sig: wasmhost.Signature{Params: i32}, Optional: true})
				ws.Imports = append(ws.Imports,
					wasmhost.ImportSpec{Module: "[export]" + in.qualified, Name: "[resource-new]" + *td.Name, Sig: wasmhost.Signature{Params: i32, Results: i32}},
					wasmhost.ImportSpec{Module: "[export]" + in.qualified, Name: "[resource-drop]" + *td.Name, Sig: wasmhost.Signature{Params: i32}})
			}
		}
	}
	return ws
}

// findFunc returns the function fn of interface iface in m.
func findFunc(t *testing.T, m *model, iface, fn string) (*iface, *wit.Function) {
	t.Helper()
	for _, in := range m.ifaces {
		if in.name != iface {
			continue
		}
		for _, f := range in.funcs {
			if f.Name == fn {
				return in, f
			}
		}
	}
	t.Fatalf("%s.%s not in the world", iface, fn)
	return nil, nil
}

// fakeHost serves imports of the test world with canned results and
// records the arguments each call received.
type fakeHost struct {
	mu      sync.Mutex
	calls   []string // "fs.read-file(args)"
	results map[string]func(args []any) any
	handles map[uint32]uint32 // resource handle -> rep
}

func (h *fakeHost) record(name string, args []any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, fmtCall(name, args...))
}

func (h *fakeHost) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.calls
	h.calls = nil
	return c
}

// module returns the host module serving every function of iface that h
// has a result for, lifting arguments and storing results with the test
// codec.
func (h *fakeHost) module(t *testing.T, m *model, iface string) wasmhost.HostModule {
	var mod wasmhost.HostModule
	for _, in := range m.ifaces {
		if in.name != iface {
			continue
		}
		mod.Name = in.qualified
		for _, f := range in.funcs {
			name := in.name + "." + f.Name
			impl, ok := h.results[name]
			if !ok {
				continue
			}
			p, r := coreSignature(f, false)
			mod.Funcs = append(mod.Funcs, wasmhost.HostFuncDef{
				Name: f.Name,
				Sig:  wasmhost.Signature{Params: valueTypes(p), Results: valueTypes(r)},
				Fn: func(_ context.Context, c *wasmhost.Call, stack []uint64) error {
					mm := mem{c}
					pt := paramTypes(f)
					var args []any
					if flatCount(pt) > wit.MaxFlatParams {
						offs := fieldOffsets(pt)
						for i, t := range pt {
							v, err := mm.load(t, uint32(stack[0])+uint32(offs[i]))
							if err != nil {
								return err
							}
							args = append(args, v)
						}
					} else {
						g := stack[:len(p)]
						for _, t := range pt {
							var v any
							var err error
							if v, g, err = mm.lift(t, g); err != nil {
								return fmt.Errorf("%s: lift: %w", name, err)
							}
							args = append(args, v)
						}
					}
					h.record(name, args)
					res := impl(args)
					rt := resultType(f)
					switch raw, isRaw := res.(rawResult); {
					case isRaw:
						return c.WriteBytes(uint32(stack[len(p)-1]), raw)
					case rt == nil:
						return nil
					case len(flatTypes(rt)) <= wit.MaxFlatResults:
						stack[0] = 0
						_, err := mm.lower(rt, res, stack)
						return err
					default:
						return mm.store(rt, res, uint32(stack[len(p)-1]))
					}
				},
			})
		}
	}
	if mod.Name == "" {
		t.Fatalf("interface %s not in the world", iface)
	}
	return mod
}

// fmtCall renders an import call as fakeHost records it.
func fmtCall(name string, args ...any) string { return fmt.Sprintf("%s%v", name, args) }

// resourceModule serves [resource-new] and [resource-drop] of the
// provider's decoder: handles start at 100.
func (h *fakeHost) resourceModule() wasmhost.HostModule {
	i32 := []wasmhost.ValueType{wasmhost.I32}
	return wasmhost.HostModule{Name: "[export]smith:plugin/provider@0.0.0", Funcs: []wasmhost.HostFuncDef{
		{Name: "[resource-new]decoder", Sig: wasmhost.Signature{Params: i32, Results: i32}, Fn: func(_ context.Context, _ *wasmhost.Call, stack []uint64) error {
			h.mu.Lock()
			defer h.mu.Unlock()
			handle := uint32(100 + len(h.handles))
			h.handles[handle] = uint32(stack[0])
			stack[0] = uint64(handle)
			return nil
		}},
		{Name: "[resource-drop]decoder", Sig: wasmhost.Signature{Params: i32}, Fn: func(context.Context, *wasmhost.Call, []uint64) error {
			return errors.New("resource-drop is not expected from this guest")
		}},
	}}
}

// guestRun is a compiled test guest with its host.
type guestRun struct {
	m    *model
	host *fakeHost
	gen  *wasmhost.Generation
	log  *bytes.Buffer
}

// startPlugin compiles wasm, a guest of m, served by hosts.
func startPlugin(t *testing.T, m *model, wasm []byte, h *fakeHost, recycle int64, hosts ...wasmhost.HostModule) *guestRun {
	t.Helper()
	ctx := context.Background()
	eng, err := wasmhost.NewEngine(ctx, wasmhost.Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close(ctx) })
	log := &bytes.Buffer{}
	p, err := eng.Compile(ctx, wasmhost.Artifact{Name: "rustguest", Bytes: wasm}, wasmhost.PluginConfig{
		World:        worldSpec(m),
		Hosts:        hosts,
		Log:          log,
		MaxInstances: 1,
		RecycleBytes: recycle,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Run the compiled code: an instance of the interpreter wasmhost runs
	// meanwhile on a cache miss is not pooled once the code is compiled.
	settle, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := eng.Settle(settle); err != nil {
		t.Fatal(err)
	}
	gen, err := wasmhost.NewGeneration(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gen.Close)
	return &guestRun{m: m, host: h, gen: gen, log: log}
}

// call invokes the export fn of iface with args and returns its result as
// the test codec lifts it.
func (g *guestRun) call(t *testing.T, in *wasmhost.Instance, iface, fn string, args ...any) any {
	t.Helper()
	wi, f := findFunc(t, g.m, iface, fn)
	var out any
	err := in.Invoke(context.Background(), wi.qualified+"#"+fn, func(c *wasmhost.Call, params []uint64) error {
		mm := mem{c}
		pt := paramTypes(f)
		if flatCount(pt) > wit.MaxFlatParams {
			size, align := tupleLayout(pt)
			p, err := c.Alloc(uint32(size), uint32(align))
			if err != nil {
				return err
			}
			offs := fieldOffsets(pt)
			for i, t := range pt {
				if err := mm.store(t, args[i], p+uint32(offs[i])); err != nil {
					return err
				}
			}
			params[0] = uint64(p)
			return nil
		}
		rest := params
		for i, t := range pt {
			var err error
			if rest, err = mm.lower(t, args[i], rest); err != nil {
				return err
			}
		}
		return nil
	}, func(c *wasmhost.Call, results []uint64) error {
		mm := mem{c}
		rt := resultType(f)
		var err error
		switch {
		case rt == nil:
		case len(flatTypes(rt)) <= wit.MaxFlatResults:
			out, _, err = mm.lift(rt, results)
		default:
			out, err = mm.load(rt, uint32(results[0]))
		}
		return err
	})
	if err != nil {
		t.Fatalf("%s.%s: %v\nguest output:\n%s", iface, fn, err, g.log.String())
	}
	return out
}

func (g *guestRun) acquire(t *testing.T) *wasmhost.Instance {
	t.Helper()
	in, err := g.gen.Acquire(context.Background(), "rustguest")
	if err != nil {
		t.Fatalf("acquire: %v\nguest output:\n%s", err, g.log.String())
	}
	return in
}
