package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/smith-agent/smith/wasmhost"
)

// artifact is one built plugin, instrumented for fuel.
type artifact struct {
	name      string // base name of its directory
	file      string // name.wasm
	toolchain string // the compiler that built it: a Go or rustc version
	wasm      []byte
	sha256    string
}

// defaultDirs lists the plugin directories under root: each direct
// subdirectory holding a Go main package or a Rust crate (src/lib.rs),
// sorted.
func defaultDirs(root string) ([]string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: list %s: %w; run from the repository root or pass plugin directories", root, err)
	}
	var dirs []string
	for _, e := range ents {
		if d := filepath.Join(root, e.Name()); e.IsDir() && (isMain(d) || isRust(d)) {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("pluginbuild: no main package or Rust crate directly under %s; pass plugin directories", root)
	}
	return dirs, nil
}

// isMain reports whether dir has a non-test Go file of package main.
func isMain(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "package ") {
				fh.Close()
				if line == "package main" {
					return true
				}
				break
			}
		}
		fh.Close()
	}
	return false
}

// buildEnv is the environment of every build: the caller's minus anything
// that changes the output, plus the fixed target.
func buildEnv() []string {
	drop := []string{"GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOWASM", "GOEXPERIMENT", "GOTOOLCHAIN", "GOAMD64", "GOARM64", "GODEBUG"}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(drop, k) {
			env = append(env, kv)
		}
	}
	return append(env, "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=", "GOWASM=", "GOEXPERIMENT=", "GOTOOLCHAIN=local")
}

// goVersion is the toolchain version the builds use.
func goVersion() (string, error) {
	cmd := exec.Command("go", "env", "GOVERSION")
	cmd.Env = buildEnv()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("pluginbuild: go env GOVERSION: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// build compiles the plugin in dir to tmp and returns its artifacts,
// instrumented: a Rust crate with rustc (rust.go), one artifact per line
// of its variants file if it has one; a Go main package with the Go
// toolchain of version goVer.
func build(dir, tmp, goVer string) ([]artifact, error) {
	name := filepath.Base(filepath.Clean(dir))
	switch {
	case isRust(dir):
		vs, err := readVariants(dir)
		if err != nil {
			return nil, err
		}
		if vs == nil {
			raw, err := buildRust(dir, name, tmp, nil)
			if err != nil {
				return nil, err
			}
			a, err := instrument(dir, name, rustVersion, raw)
			return []artifact{a}, err
		}
		// Each variant leaves code of the others unused, so the
		// variants build with dead code allowed; this check of the whole
		// crate refuses every warning.
		if err := checkRust(dir, tmp); err != nil {
			return nil, err
		}
		// rustc with one codegen unit uses one core: the variants build
		// side by side, one per core.
		arts := make([]artifact, len(vs))
		errs := make([]error, len(vs))
		sem := make(chan struct{}, runtime.NumCPU())
		var wg sync.WaitGroup
		for i, v := range vs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				raw, err := buildRust(dir, v.name, tmp, []string{"--cfg", "variant", "--cfg", v.module, "-A", "dead_code"})
				if err == nil {
					arts[i], err = instrument(dir, v.name, rustVersion, raw)
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		return arts, errors.Join(errs...)
	case isMain(dir):
		raw, err := buildGo(dir, name, tmp)
		if err != nil {
			return nil, err
		}
		a, err := instrument(dir, name, goVer, raw)
		return []artifact{a}, err
	default:
		return nil, fmt.Errorf("pluginbuild: %s holds neither a Go main package nor a Rust crate (src/lib.rs); a plugin directory is one of them", dir)
	}
}

// instrument instruments raw, the module built from dir by toolchain,
// for fuel and returns it as the artifact called name. It is done here,
// once, rather than by every smith start (which would then read and check
// a cached instrumented copy as well).
func instrument(dir, name, toolchain string, raw []byte) (artifact, error) {
	b, err := wasmhost.Instrument(raw)
	if err != nil {
		return artifact{}, fmt.Errorf("pluginbuild: %s: %w", dir, err)
	}
	sum := sha256.Sum256(b)
	return artifact{name: name, file: name + ".wasm", toolchain: toolchain, wasm: b, sha256: hex.EncodeToString(sum[:])}, nil
}

// buildGo compiles the Go main package in dir to tmp/<name>.wasm and
// returns the module's bytes.
func buildGo(dir, name, tmp string) ([]byte, error) {
	out := filepath.Join(tmp, name+".wasm")
	pkg := "./" + filepath.ToSlash(filepath.Clean(dir))
	if filepath.IsAbs(dir) {
		pkg = dir
	}
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-buildvcs=false", "-o", out, pkg)
	cmd.Env = buildEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("pluginbuild: go build %s: %w\n%s", pkg, err, stderr.Bytes())
	}
	return os.ReadFile(out)
}

// run builds every dir and writes or checks the artifacts in outDir.
func run(dirs []string, outDir string, check bool) error {
	tmp, err := os.MkdirTemp("", "pluginbuild-")
	if err != nil {
		return fmt.Errorf("pluginbuild: %w", err)
	}
	defer os.RemoveAll(tmp)
	version, err := goVersion()
	if err != nil {
		return err
	}
	var arts []artifact
	for _, d := range dirs {
		built, err := build(d, tmp, version)
		if err != nil {
			return err
		}
		for _, a := range built {
			if slices.ContainsFunc(arts, func(b artifact) bool { return b.name == a.name }) {
				return fmt.Errorf("pluginbuild: two artifacts are named %q (%s); artifact names come from directory names and variants files and must be unique", a.name, d)
			}
			arts = append(arts, a)
		}
	}
	files := map[string][]byte{pinsFile: pins(wasmhost.InstrumentationVersion(), arts)}
	for _, a := range arts {
		files[a.file] = a.wasm
	}
	if check {
		return compare(outDir, files, arts)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("pluginbuild: %w", err)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(outDir, name), b, 0o644); err != nil {
			return fmt.Errorf("pluginbuild: %w", err)
		}
	}
	return refreshRegistrations(outDir)
}

// registrationsFile, in the output directory, holds the artifacts'
// registrations computed ahead (smith/internal/sysplugins): its package's
// TestRegistrations computes them, with the grants only that package
// knows, and rewrites the file with -update.
const registrationsFile = "registrations_gen.go"

// refreshRegistrations rewrites outDir's registrations file, if it has one,
// for the artifacts just written.
func refreshRegistrations(outDir string) error {
	if _, err := os.Stat(filepath.Join(outDir, registrationsFile)); err != nil {
		return nil
	}
	pkg, err := filepath.Abs(outDir)
	if err != nil {
		return fmt.Errorf("pluginbuild: %w", err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestRegistrations$", pkg, "-update")
	cmd.Dir = pkg
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pluginbuild: refresh %s: go test -run TestRegistrations -update: %w\n%s", filepath.Join(outDir, registrationsFile), err, out)
	}
	return nil
}

// compare fails naming every file of want that differs from outDir.
func compare(outDir string, want map[string][]byte, arts []artifact) error {
	var diffs []string
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		got, err := os.ReadFile(filepath.Join(outDir, n))
		switch {
		case err != nil:
			diffs = append(diffs, fmt.Sprintf("%s: %v", filepath.Join(outDir, n), err))
		case !bytes.Equal(got, want[n]):
			diffs = append(diffs, fmt.Sprintf("%s: %d bytes on disk, %d rebuilt, first difference at byte %d", filepath.Join(outDir, n), len(got), len(want[n]), firstDiff(got, want[n])))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	var tcs []string
	for _, a := range arts {
		tcs = append(tcs, a.name+": "+a.toolchain)
	}
	return errors.New("pluginbuild: the committed plugin artifacts differ from a rebuild (" + strings.Join(tcs, ", ") +
		"; the pinned toolchains are in " + pinsFile + "):\n  " + strings.Join(diffs, "\n  ") +
		"\nrun go run ./tools/pluginbuild and commit the result")
}

func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
