package wasmhost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/smith-agent/smith/wasmhost/internal/fuel"
)

// Compile reads, validates, instruments and compiles an artifact. Nothing in
// the artifact executes here. A refused artifact yields a *ValidationError
// naming every offending import, export or property, what was expected and
// the fix. Compile is safe for concurrent use. Compiled code is cached in
// the engine's cache directory, so compiling the same bytes again (in this
// or a later process) is fast; on a miss the plugin's instances run
// interpreted until the optimizing compile, started in the background, is
// done (see the package documentation, "Compilation").
func (e *Engine) Compile(ctx context.Context, a Artifact, cfg PluginConfig) (*Plugin, error) {
	refuse := func(item, got, want, fix string) error {
		return &ValidationError{Plugin: a.Name, Problems: []Problem{{Item: item, Got: got, Want: want, Fix: fix}}}
	}
	budgets, err := e.budgets(a.Name, cfg.Budgets)
	if err != nil {
		return nil, err
	}
	if a.Instrumented != "" {
		switch {
		case !a.Verified:
			return nil, refuse("artifact", "is marked Instrumented ("+a.Instrumented+") but not Verified", "a pinned artifact the caller verified",
				"set Verified after checking the pin, or pass the uninstrumented module and leave Instrumented empty")
		case a.Instrumented != InstrumentationVersion():
			return nil, refuse("artifact", "was instrumented by "+a.Instrumented, "this build's instrumentation "+InstrumentationVersion(),
				"rebuild the plugin with this build's tools (go run ./tools/pluginbuild), or pass the uninstrumented module")
		case cfg.noFuel:
			return nil, fmt.Errorf("wasmhost: plugin %q: an instrumented artifact cannot run without fuel", a.Name)
		}
	}
	raw, sum, err := readArtifact(a)
	if err != nil {
		return nil, err
	}
	notCore := func(err error) error {
		return refuse("artifact", "is not a valid core WebAssembly module: "+err.Error(), "a core module (not a component)",
			"ship the core module that wit-bindgen or `go build -buildmode=c-shared` produces, before componentization")
	}
	m, err := decodeHeader(raw)
	if err != nil {
		return nil, notCore(err)
	}
	hosts, err := hostIndex(a.Name, cfg.Hosts, &cfg.World)
	if err != nil {
		return nil, err
	}
	v := validation{world: &cfg.World, hosts: hosts, memPages: budgets.MemoryPages, exports: map[string]exportInfo{},
		instrumented: a.Instrumented != "", fuelSeen: map[string]bool{}}
	v.check(m)
	if len(v.problems) > 0 {
		return nil, &ValidationError{Plugin: a.Name, Problems: v.problems}
	}
	key := moduleKey{sum: sum, noFuel: cfg.noFuel, final: a.Instrumented != ""}
	entry, err := e.compiledModule(ctx, key, cfg.Passive, func() ([]byte, error) {
		if cfg.noFuel || key.final {
			return raw, nil
		}
		out, err := instrument(raw)
		var ie *instrumentError
		switch {
		case errors.As(err, &ie) && ie.decode:
			return nil, notCore(err)
		case err != nil:
			return nil, refuse("artifact", "cannot be instrumented for fuel: "+err.Error(), "WebAssembly 2.0 (fixed-width SIMD included) without threads, exceptions or relaxed SIMD",
				"build the plugin without those features")
		}
		return out, nil
	})
	if err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) || errors.Is(err, errEngineClosed) {
			return nil, err
		}
		return nil, refuse("artifact", "does not compile: "+err.Error(), "a valid WebAssembly 2.0 module", "rebuild the plugin")
	}
	p := &Plugin{
		name: a.Name, engine: e, cfg: cfg, budgets: budgets, entry: entry,
		exports: v.exports, hasInit: v.hasInit,
	}
	p.memory = memoryAllocator(uint64(budgets.MemoryPages) * 65536)
	p.stackLen = 4
	for _, info := range p.exports {
		p.stackLen = max(p.stackLen, len(info.sig.Params), len(info.sig.Results))
	}
	if err := p.link(ctx, &p.opt, e.opt); err != nil {
		_ = p.Close(ctx)
		return nil, err
	}
	if e.interpreted(entry) {
		be, err := e.interpreter(ctx)
		if err == nil {
			err = p.link(ctx, &p.interp, be)
		}
		if err != nil {
			_ = p.Close(ctx)
			return nil, err
		}
	}
	return p, nil
}

// budgets applies the defaults and the engine ceiling to b.
func (e *Engine) budgets(plugin string, b Budgets) (Budgets, error) {
	if b.Fuel == 0 {
		b.Fuel = DefaultFuel
	}
	if b.Timeout == 0 {
		b.Timeout = DefaultTimeout
	}
	if b.MemoryPages == 0 {
		b.MemoryPages = e.memLimit
	}
	if b.MemoryPages > e.memLimit {
		return b, fmt.Errorf("wasmhost: plugin %q: Budgets.MemoryPages %d exceeds the engine ceiling Config.MemoryLimitPages %d; lower the budget or raise the ceiling",
			plugin, b.MemoryPages, e.memLimit)
	}
	if b.LogBytes == 0 {
		b.LogBytes = DefaultLogBytes
	}
	if b.OutputBytes == 0 {
		b.OutputBytes = DefaultOutputBytes
	}
	if b.CallDepth == 0 {
		b.CallDepth = DefaultCallDepth
	}
	return b, nil
}

// readArtifact materializes the artifact after checking its declared size,
// reading at most MaxBytes+1 bytes, and returns it with its SHA-256 (hashed
// while reading, once) after verifying the pinned hash; a Verified
// artifact's pin is taken as its SHA-256 without hashing.
func readArtifact(a Artifact) ([]byte, [32]byte, error) {
	limit := a.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	refuse := func(got, want, fix string) error {
		return &ValidationError{Plugin: a.Name, Problems: []Problem{{Item: "artifact", Got: got, Want: want, Fix: fix}}}
	}
	if a.Reader == nil && a.Bytes == nil {
		return nil, [32]byte{}, fmt.Errorf("wasmhost: plugin %q: Artifact.Reader and Artifact.Bytes are nil; pass the module bytes", a.Name)
	}
	if a.Size > limit {
		return nil, [32]byte{}, refuse(fmt.Sprintf("declares %d bytes", a.Size), fmt.Sprintf("at most %d bytes", limit),
			"shrink the plugin (build with -ldflags='-s -w') or raise Artifact.MaxBytes")
	}
	var pinned [32]byte
	if a.Verified {
		if len(a.SHA256) != hex.EncodedLen(len(pinned)) || !decodeHex(pinned[:], a.SHA256) {
			return nil, [32]byte{}, refuse(fmt.Sprintf("is marked Verified with SHA256 %q", a.SHA256), "a 64-digit hex SHA-256 pin",
				"pin the SHA-256 the caller verified, or leave Verified false so Compile hashes the bytes")
		}
	}
	h := sha256.New()
	var raw []byte
	if a.Bytes != nil {
		raw = a.Bytes
		if int64(len(raw)) <= limit && !a.Verified {
			h.Write(raw)
		}
	} else {
		var r io.Reader = io.LimitReader(a.Reader, limit+1)
		if !a.Verified {
			r = io.TeeReader(r, h)
		}
		capHint := a.Size
		if capHint <= 0 || capHint > limit {
			capHint = 0
		}
		// ReadFrom grows the buffer (copying it) unless bytes.MinRead bytes
		// are free when the reader reports EOF.
		buf := bytes.NewBuffer(make([]byte, 0, capHint+bytes.MinRead))
		if _, err := buf.ReadFrom(r); err != nil {
			return nil, [32]byte{}, fmt.Errorf("wasmhost: plugin %q: read artifact: %w", a.Name, err)
		}
		raw = buf.Bytes()
	}
	n := int64(len(raw))
	if n > limit {
		return nil, [32]byte{}, refuse(fmt.Sprintf("is larger than %d bytes", limit), fmt.Sprintf("at most %d bytes", limit),
			"shrink the plugin (build with -ldflags='-s -w') or raise Artifact.MaxBytes")
	}
	if a.Size > 0 && n != a.Size {
		return nil, [32]byte{}, refuse(fmt.Sprintf("has %d bytes", n), fmt.Sprintf("the declared %d bytes", a.Size),
			"the artifact was truncated or replaced; reinstall it")
	}
	if a.Verified {
		return raw, pinned, nil
	}
	var sum [32]byte
	h.Sum(sum[:0])
	if a.SHA256 != "" {
		got := hex.EncodeToString(sum[:])
		if !strings.EqualFold(got, a.SHA256) {
			return nil, sum, refuse("has SHA-256 "+got, "the pinned "+a.SHA256,
				"the artifact changed since it was pinned; reinstall it or update the pin after reviewing it")
		}
	}
	return raw, sum, nil
}

// hostIndex indexes the granted host functions and rejects duplicate or
// reserved names and signatures that differ from the world's.
func hostIndex(plugin string, hosts []HostModule, world *WorldSpec) (map[string]map[string]HostFuncDef, error) {
	declared := map[[2]string]Signature{}
	for _, imp := range world.Imports {
		declared[[2]string{imp.Module, imp.Name}] = imp.Sig
	}
	idx := map[string]map[string]HostFuncDef{}
	for _, hm := range hosts {
		if hm.Name == wasiModule || hm.Name == fuel.Module {
			return nil, fmt.Errorf("wasmhost: plugin %q: host module name %q is reserved; rename it", plugin, hm.Name)
		}
		if _, dup := idx[hm.Name]; dup {
			return nil, fmt.Errorf("wasmhost: plugin %q: host module %q given twice; merge the two", plugin, hm.Name)
		}
		fns := map[string]HostFuncDef{}
		for _, f := range hm.Funcs {
			if f.Fn == nil {
				return nil, fmt.Errorf("wasmhost: plugin %q: host function %q %q has a nil Fn", plugin, hm.Name, f.Name)
			}
			if _, dup := fns[f.Name]; dup {
				return nil, fmt.Errorf("wasmhost: plugin %q: host function %q %q given twice", plugin, hm.Name, f.Name)
			}
			if want, ok := declared[[2]string{hm.Name, f.Name}]; ok && !want.same(f.Sig) {
				return nil, fmt.Errorf("wasmhost: plugin %q: host function %q %q has signature %v but world %s@%s declares %v; regenerate the host bindings",
					plugin, hm.Name, f.Name, f.Sig, world.Package, world.Version, want)
			}
			fns[f.Name] = f
		}
		idx[hm.Name] = fns
	}
	return idx, nil
}

// link prepares what the plugin's instances on backend be link to: the
// fuel module and the plugin's own host modules, instantiated
// anonymously, so two plugins can be granted different implementations
// under one import name.
func (p *Plugin) link(ctx context.Context, l *linked, be *backend) error {
	if !p.cfg.noFuel {
		if err := be.ensureFuelModule(ctx); err != nil {
			return err
		}
	}
	l.be, l.hosts = be, make(map[string]api.Module, len(p.cfg.Hosts))
	l.resolve = func(name string) api.Module { return l.hosts[name] } // nil: the runtime's namespace (WASI, fuel)
	for _, hm := range p.cfg.Hosts {
		b := be.rt.NewHostModuleBuilder(hm.Name)
		for _, f := range hm.Funcs {
			b.NewFunctionBuilder().
				WithGoModuleFunction(hostCall(hm.Name, f), apiTypes(f.Sig.Params), apiTypes(f.Sig.Results)).
				WithName(f.Name).
				Export(f.Name)
		}
		cm, err := b.Compile(ctx)
		if err != nil {
			return fmt.Errorf("wasmhost: plugin %q: compile host module %q: %w", p.name, hm.Name, err)
		}
		mod, err := be.rt.InstantiateModule(ctx, cm, wazero.NewModuleConfig().WithName(""))
		if err != nil {
			return fmt.Errorf("wasmhost: plugin %q: instantiate host module %q: %w", p.name, hm.Name, err)
		}
		l.hosts[hm.Name] = mod
	}
	return nil
}

func apiTypes(ts []ValueType) []api.ValueType {
	out := make([]api.ValueType, len(ts))
	for i, t := range ts {
		out[i] = api.ValueType(t)
	}
	return out
}

// Close releases the plugin's host modules and its hold on the compiled
// code (shared with other plugins compiled from the same bytes). Close a
// plugin only after the generations publishing it are closed and their
// calls have finished. Close is idempotent.
func (p *Plugin) Close(ctx context.Context) error {
	var errs []error
	p.closed.Do(func() {
		for _, l := range []*linked{&p.opt, &p.interp} {
			for _, m := range l.hosts {
				errs = append(errs, m.Close(ctx))
			}
		}
		if p.entry != nil {
			errs = append(errs, p.engine.releaseModule(ctx, p.entry))
		}
	})
	return errors.Join(errs...)
}

// decodeHex decodes the hex string s, exactly len(dst) bytes long once
// decoded, into dst and reports whether it was valid hex.
func decodeHex(dst []byte, s string) bool {
	n, err := hex.Decode(dst, []byte(s))
	return err == nil && n == len(dst)
}
