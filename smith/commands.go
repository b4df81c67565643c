package main

import "github.com/urfave/cli/v3"

// version is the smith release version; release builds set it with -ldflags.
var version = "0.0.0-dev"

// rootCommand assembles the smith command line. Each subcommand lives in its
// own file and is listed here once.
func rootCommand() *cli.Command {
	return &cli.Command{
		Name:  "smith",
		Usage: "a fast terminal coding agent",
		UsageText: "smith [options] [PROMPT]         the interactive mode: a conversation in the terminal\n" +
			"smith --continue | --resume [ID] continue this directory's latest session, or pick one\n" +
			"smith COMMAND [options]          one of the commands below",
		Version: version,
		Flags:   append(globalFlags(), interactiveFlags()...),
		Action:  rootAction,
		Commands: []*cli.Command{
			// One line per subcommand, alphabetical.
			authCommand(),
			configCommand(),
			demoCommand(),
			doctorCommand(),
			evalCommand(),
			mcpCommand(),
			modelsCommand(),
			pluginCommand(),
			promptCommand(),
			replayCommand(),
			rpcCommand(),
			secretCommand(),
			sessionCommand(),
		},
	}
}
