package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/smith/internal/home"
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
		out = append(out, &cli.StringFlag{Name: o.Flag, Aliases: aliases, Usage: usage})
	}
	return out
}

// loadConfig resolves the configuration for a command working in
// projectDir: the user's smith.kdl, the project's when trusted, the
// environment and the command's configuration flags. Notes (an untrusted
// project file not read) go to stderr. An invalid configuration is a usage
// error listing every problem.
func loadConfig(cmd *cli.Command, projectDir string, stderr io.Writer) (*config.Config, error) {
	user, _, err := home.ConfigFile(cmd.String("home"), os.Getenv)
	if err != nil {
		return nil, err
	}
	flags := map[string]string{}
	for _, o := range config.Options() {
		if !cmd.IsSet(o.Flag) {
			continue
		}
		if o.Bool {
			flags[o.Flag] = strconv.FormatBool(cmd.Bool(o.Flag))
		} else {
			flags[o.Flag] = cmd.String(o.Flag)
		}
	}
	cfg, err := config.Load(config.Inputs{UserFile: user, ProjectDir: projectDir, Flags: flags})
	if err != nil {
		return nil, usageErrorf("%s: %w\n(fix the configuration above; 'smith config show' lists every value and its source)", cmdName(cmd), err)
	}
	if stderr != nil {
		for _, n := range cfg.Notes {
			fmt.Fprintf(stderr, "smith: %s\n", n)
		}
	}
	return cfg, nil
}
