package main

import (
	"context"
	"os"
	"strings"

	"github.com/smith-agent/smith/core/runtime"
	"github.com/urfave/cli/v3"
)

// globalFlags are declared once on the root and inherited by every
// subcommand.
func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "home", Usage: "Smith's data `DIR` (sessions live in DIR/sessions, your configuration in DIR/smith.kdl); default $XDG_DATA_HOME/smith or ~/.local/share/smith, with the configuration in $XDG_CONFIG_HOME/smith or ~/.config/smith",
			Sources: cli.EnvVars("SMITH_HOME")},
		pluginFlag(),
	}
}

// rootAction runs the interactive mode: `smith`, `smith PROMPT`, `smith
// --continue`, `smith --resume [ID]`. Without a terminal a bare `smith`
// shows the help.
func rootAction(ctx context.Context, cmd *cli.Command) error {
	return interactive(ctx, cmd)
}

// paths resolves Smith's paths from --home / SMITH_HOME and the XDG
// environment.
func paths(cmd *cli.Command) (runtime.Paths, error) {
	p, err := runtime.LocatePaths(cmd.String("home"), os.Getenv)
	if err != nil {
		return runtime.Paths{}, usageErrorf("%s: %v", cmdName(cmd), strings.TrimPrefix(err.Error(), "runtime: "))
	}
	return p, nil
}

// cmdName is the command's name as errors print it after "smith: ", such
// as "session show".
func cmdName(cmd *cli.Command) string { return strings.TrimPrefix(cmd.FullName(), "smith ") }
