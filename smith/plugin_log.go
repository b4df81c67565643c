package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/smith-agent/smith/core/pluginpkg"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/urfave/cli/v3"
)

// pluginLogCommand is `smith plugin log [NAME]`.
func pluginLogCommand() *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "show the end of the plugin log: what plugins wrote through the log capability, stdout and stderr",
		ArgsUsage: "[NAME]",
		Description: "The plugin log is DATA/logs/plugins.log (rotated to plugins.log.1 at 1 MiB), one line per\n" +
			"record: time, plugin, level, message. NAME shows one plugin's lines only.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "lines", Aliases: []string{"n"}, Value: 50, Usage: "show the last `N` lines"},
		},
		Action: pluginLog,
	}
}

func pluginLog(_ context.Context, cmd *cli.Command) error {
	args := cmd.Args().Slice()
	if len(args) > 1 {
		return usageErrorf("plugin log: expected at most one plugin name, got %d arguments; such as `smith plugin log shout`", len(args))
	}
	prefix := ""
	if len(args) == 1 {
		if err := pluginpkg.ValidName(args[0]); err != nil {
			return usageErrorf("plugin log: %v", err)
		}
		prefix = "plugin " + args[0] + ":"
	}
	n := cmd.Int("lines")
	if n < 1 {
		return usageErrorf("plugin log: --lines %d is not a positive number of lines", n)
	}
	_, p, err := pluginStore(cmd)
	if err != nil {
		return err
	}
	path := p.PluginLog()
	var lines []string
	found := false
	for _, f := range []string{path + ".1", path} {
		b, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("plugin log: %w", err)
		}
		found = true
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			// A line is "TIME plugin NAME: LEVEL: MESSAGE".
			if _, rest, _ := strings.Cut(l, " "); l != "" && strings.HasPrefix(rest, prefix) {
				lines = append(lines, l)
			}
		}
	}
	w := cmd.Root().Writer
	if !found {
		fmt.Fprintf(w, "The plugin log %s is empty: no plugin has written to it yet.\n", path)
		return nil
	}
	if len(lines) == 0 && prefix != "" {
		fmt.Fprintf(w, "The plugin log %s has no lines of %s.\n", path, args[0])
		return nil
	}
	for _, l := range lines[max(0, len(lines)-n):] {
		fmt.Fprintln(w, textout.Safe(l))
	}
	return nil
}
