package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/pluginpkg"
	"github.com/smith-agent/smith/smith/internal/sysplugins"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/smith-agent/smith/wasmhost"
	"github.com/urfave/cli/v3"
)

// pluginCheckCommand is `smith plugin check PATH`.
func pluginCheckCommand() *cli.Command {
	return &cli.Command{Name: "check", ArgsUsage: "PATH",
		Usage: "check a plugin package (or a bare .wasm) against this Smith's world: deprecated and removed items it uses, with the migration, and whether it loads",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			c, err := checkPlugin(ctx, cmd, "plugin check")
			if err != nil {
				return err
			}
			c.print(cmd.Root().Writer)
			if !c.ok() {
				return &exitError{code: exitFailure, err: fmt.Errorf("plugin check: %s does not load in this Smith; fix what is listed above", c.path)}
			}
			return nil
		}}
}

// pluginCheck is what `smith plugin check` found.
type pluginCheck struct {
	path     string
	name     string // the plugin's name
	findings []pluginpkg.Finding
	loadErr  string // why it does not load ("" when it does, or was not tried)
	loaded   string // what it contributes, when it loads
}

func (c pluginCheck) ok() bool { return !pluginpkg.Blocking(c.findings) && c.loadErr == "" }

// checkPlugin reads PATH (the command's one argument) and checks it.
func checkPlugin(ctx context.Context, cmd *cli.Command, what string) (pluginCheck, error) {
	args := cmd.Args().Slice()
	if len(args) != 1 {
		return pluginCheck{}, usageErrorf("%s: expected one PATH, got %d arguments; such as `smith %s ./shout` (a directory holding plugin.kdl, or a .wasm)", what, len(args), what)
	}
	c := pluginCheck{path: args[0]}
	st, err := os.Stat(c.path)
	if err != nil {
		return c, usageErrorf("%s: %s does not exist; pass a package directory (holding plugin.kdl) or a .wasm file", what, c.path)
	}
	var pkg *pluginpkg.Package
	var wasm []byte
	if st.IsDir() {
		if pkg, err = pluginpkg.OpenPackage(c.path); err != nil {
			return c, usageErrorf("%s: %v", what, err)
		}
		c.name, wasm = pkg.Manifest.Name, pkg.Wasm
	} else {
		if wasm, err = pluginpkg.ReadArtifact(c.path); err != nil {
			return c, usageErrorf("%s: %v", what, err)
		}
		c.name = strings.TrimSuffix(filepath.Base(c.path), ".wasm")
	}
	s, err := wasmhost.ReadSurface(wasm)
	if err != nil {
		return c, usageErrorf("%s: %s: %v", what, c.path, strings.TrimPrefix(err.Error(), "wasmhost: "))
	}
	c.findings = pluginpkg.CheckSurface(s)
	if pkg == nil || pluginpkg.Blocking(c.findings) {
		return c, nil // a bare .wasm's grants come from install's flags; a blocked one cannot load
	}
	p, err := paths(cmd)
	if err != nil {
		return c, err
	}
	sys, err := sysplugins.Artifacts()
	if err != nil {
		return c, err
	}
	h, err := plugin.Open(ctx, plugin.Config{CacheDir: p.Cache})
	if err != nil {
		return c, err
	}
	defer h.Close(context.WithoutCancel(ctx))
	reg, err := pluginpkg.Register(ctx, h, sys, pkg.Artifact())
	if err != nil {
		c.loadErr = strings.TrimPrefix(err.Error(), "plugin: ")
		return c, nil
	}
	contrib, _ := pluginpkg.ContributionsOf(reg)
	c.loaded = contribText(contrib)
	return c, nil
}

// print shows the findings, each with its fix, then whether it loads.
func (c pluginCheck) print(out io.Writer) {
	w := textout.SafeWriter{W: out}
	fmt.Fprintf(w, "plugin %s (%s), against %s@%s\n", c.name, c.path, "smith:plugin", plugin.WorldVersion)
	if len(c.findings) == 0 {
		fmt.Fprintln(w, "  world        uses no deprecated or removed item")
	}
	for _, f := range c.findings {
		fmt.Fprintf(w, "  %-12s %s (%s): %s\n", f.Kind, f.Item, f.Use, f.Text)
		fmt.Fprintf(w, "  %-12s %s\n", "", f.Fix)
	}
	switch {
	case c.loadErr != "":
		fmt.Fprintf(w, "  loads        no: %s\n", c.loadErr)
	case c.loaded != "":
		fmt.Fprintf(w, "  loads        yes; contributes %s\n", c.loaded)
	case pluginpkg.Blocking(c.findings):
		fmt.Fprintln(w, "  loads        no: fix the items above")
	default:
		fmt.Fprintln(w, "  loads        not tried: a bare .wasm is granted what install's flags say; check its package directory")
	}
	for _, f := range c.findings {
		if f.Kind == pluginpkg.FindingDeprecated {
			fmt.Fprintf(w, "'smith doctor deprecator %s' asks the agent to migrate it.\n", c.path)
			break
		}
	}
}
