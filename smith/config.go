package main

import (
	"slices"

	"github.com/smith-agent/smith/core/config"
	"github.com/urfave/cli/v3"
)

// configFlags returns the flags of core/config's options (only those named,
// when names are given), each declared
// there once with its environment variable; the environment is read by
// config.Load, not by the cli package, so every value's source is known.
func configFlags(only ...string) []cli.Flag {
	var out []cli.Flag
	for _, o := range config.Options() {
		if len(only) > 0 && !slices.Contains(only, o.Flag) {
			continue
		}
		usage := o.Usage
		if o.Key != "" {
			usage += "; smith.kdl: " + o.Key
		}
		if o.Env != "" {
			usage += " [$" + o.Env + "]"
		}
		var aliases []string
		if o.Short != "" {
			aliases = []string{o.Short}
		}
		if o.Bool {
			out = append(out, &cli.BoolFlag{Name: o.Flag, Aliases: aliases, Usage: usage})
			continue
		}
		if o.List {
			out = append(out, &cli.StringSliceFlag{Name: o.Flag, Aliases: aliases, Usage: usage})
			continue
		}
		out = append(out, &cli.StringFlag{Name: o.Flag, Aliases: aliases, Usage: usage})
	}
	return out
}
