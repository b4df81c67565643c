// Command witgen generates Smith's plugin bindings from a WIT world: Go
// guest bindings (for standard-toolchain wasip1 guests), Rust guest
// bindings (one file, for rustc's wasm32-wasi), Go host bindings
// (lift/lower over wasmhost), the WorldSpec the engine validates artifacts
// against, and the plugin reference documentation.
//
// Usage, from the repository root: `go run ./tools/witgen -repo` regenerates
// everything the repository derives from its WIT (see repoConfigs), and
// `-repo -check` fails on any difference, which scripts/gencheck.sh runs.
// The other flags run one world:
//
//	go run ./tools/witgen -wit wit -world plugin -base core -required contrib \
//		-guest-dir wit -guest-import github.com/smith-agent/smith/wit \
//		-host-dir core/internal/pluginabi -host-package pluginabi \
//		-docs wit/docs/reference.md -rust wit/rust/smith_plugin.rs
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// config is one witgen run.
type config struct {
	witDir, world, base, required  string
	guestDir, guestImport, runtime string
	hostDir, hostPackage           string
	docs                           string
	rust                           string // the Rust guest bindings file
	check                          bool
	model                          *model // preloaded, for tests
}

// withModel returns c generating m's guest and host bindings under dir.
func (c config) withModel(m *model, dir string) config {
	c.model = m
	c.guestDir, c.guestImport = dir+"/guest", "example.com/guest"
	c.hostDir, c.hostPackage = dir+"/host", "host"
	return c
}

func main() {
	var c config
	flag.StringVar(&c.witDir, "wit", "wit", "directory of the WIT package")
	flag.StringVar(&c.world, "world", "plugin", "world to generate")
	flag.StringVar(&c.base, "base", "", "world whose imports are core; the world's other imports are capabilities")
	flag.StringVar(&c.required, "required", "", "comma-separated exported interfaces every artifact must export")
	flag.StringVar(&c.guestDir, "guest-dir", "", "directory for the Go guest bindings (one package per interface)")
	flag.StringVar(&c.guestImport, "guest-import", "", "import path of -guest-dir")
	flag.StringVar(&c.runtime, "guest-runtime", "github.com/smith-agent/smith/wit/internal/cabi", "import path of the guest runtime")
	flag.StringVar(&c.hostDir, "host-dir", "", "directory for the Go host bindings")
	flag.StringVar(&c.hostPackage, "host-package", "", "Go package name of the host bindings")
	flag.StringVar(&c.docs, "docs", "", "markdown file for the reference documentation")
	flag.StringVar(&c.rust, "rust", "", "file for the Rust guest bindings (one module per interface)")
	flag.BoolVar(&c.check, "check", false, "compare with the files on disk instead of writing; exit 1 on any difference")
	repo := flag.Bool("repo", false, "run every generation of the repository (run from its root)")
	flag.Parse()
	configs := []config{c}
	if *repo {
		configs = repoConfigs
	}
	var err error
	for _, rc := range configs {
		if err = run(rc, c.check); err != nil {
			break
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// repoConfigs are the generations of this repository, paths relative to its
// root: the plugin API, and the test-only conformance world through the same
// generator.
var repoConfigs = []config{
	{
		witDir: "wit", world: "plugin", base: "core", required: "contrib",
		guestDir: "wit", guestImport: "github.com/smith-agent/smith/wit",
		runtime: "github.com/smith-agent/smith/wit/internal/cabi",
		hostDir: "core/internal/pluginabi", hostPackage: "pluginabi",
		docs: "wit/docs/reference.md", rust: "wit/rust/smith_plugin.rs",
	},
	{
		witDir: "wit/internal/conformance/wit", world: "conformance", required: "guest",
		guestDir: "wit/internal/conformance", guestImport: "github.com/smith-agent/smith/wit/internal/conformance",
		runtime: "github.com/smith-agent/smith/wit/internal/cabi",
		hostDir: "core/internal/pluginabi/internal/conformance", hostPackage: "conformance",
	},
}

// run generates c and writes the files, or with check compares them.
func run(c config, check bool) error {
	out, err := generate(c)
	if err != nil {
		return err
	}
	if check {
		return out.check(c.outputDirs())
	}
	return out.write(c.outputDirs())
}

// outputDirs are the directories whose witgen-generated files this run owns.
func (c config) outputDirs() []string {
	var dirs []string
	for _, d := range []string{c.guestDir, c.hostDir} {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// generate produces every output file of c in memory.
func generate(c config) (output, error) {
	m := c.model
	if m == nil {
		var err error
		if m, err = loadModel(c.witDir, c.world, c.base); err != nil {
			return nil, err
		}
	}
	if err := checkDocs(m); err != nil {
		return nil, err
	}
	errTypes, err := errorTypes(m)
	if err != nil {
		return nil, err
	}
	var deps []deprecation
	hasDeps := false
	if c.model == nil {
		if deps, hasDeps, err = loadDeprecations(c.witDir, m); err != nil {
			return nil, err
		}
	}
	source := c.witDir
	out := output{}
	if c.guestDir != "" {
		cfg := guestConfig{dir: c.guestDir, prefix: c.guestImport, runtime: c.runtime}
		if err := genGuest(m, cfg, errTypes, source, out); err != nil {
			return nil, err
		}
	}
	if c.hostDir != "" {
		req := map[string]bool{}
		for _, r := range strings.Split(c.required, ",") {
			if r != "" {
				req[r] = true
			}
		}
		cfg := hostConfig{dir: c.hostDir, pkg: c.hostPackage, required: req}
		if err := genHost(m, cfg, errTypes, source, out); err != nil {
			return nil, err
		}
		if hasDeps {
			if err := out.add(filepath.Join(c.hostDir, "deprecations_gen.go"), genDeprecationTable(m, deps, c.hostPackage), source); err != nil {
				return nil, err
			}
		}
	}
	if c.docs != "" {
		out[c.docs] = []byte(genDocs(m, deps, hasDeps))
	}
	if c.rust != "" {
		src, err := genRust(m, source)
		if err != nil {
			return nil, err
		}
		out[c.rust] = src
	}
	return out, nil
}
