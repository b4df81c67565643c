package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/smith/internal/scaffold"
	"github.com/urfave/cli/v3"
)

// pluginNewCommand is `smith plugin new NAME`.
func pluginNewCommand() *cli.Command {
	return &cli.Command{
		Name:      "new",
		Usage:     "write a new plugin package (a tool and a command, its tests and build script) to start from",
		ArgsUsage: "NAME",
		Description: "Writes the directory NAME (or --dir) holding plugin.kdl, the plugin's source, its tests,\n" +
			"build.sh, a README and a copy of Smith's plugin API, so it builds with no network.\n" +
			"docs/plugins.md is the guide.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "lang", Value: "go", Usage: "the `LANGUAGE` to write it in: " + strings.Join(scaffold.Languages, " or ")},
			&cli.StringFlag{Name: "dir", Usage: "the `DIR` to write (default: ./NAME); it must not exist or be empty"},
		},
		Action: pluginNew,
	}
}

func pluginNew(_ context.Context, cmd *cli.Command) error {
	name, err := onePluginName(cmd)
	if err != nil {
		return err
	}
	lang := cmd.String("lang")
	dir := cmd.String("dir")
	if dir == "" {
		dir = name
	}
	d := scaffold.NewData(name, plugin.WorldVersion)
	files, err := scaffold.Write(dir, lang, d)
	if err != nil {
		return usageErrorf("plugin new: %v; choose another --dir or NAME, or --lang %s", err, strings.Join(scaffold.Languages, " or "))
	}
	abs, _ := filepath.Abs(dir)
	w := cmd.Root().Writer
	fmt.Fprintf(w, "wrote the %s plugin %s into %s (%d files):\n", lang, name, abs, len(files))
	for _, f := range files {
		if !strings.HasPrefix(f, "wit/") {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	fmt.Fprintf(w, "  wit/  a copy of Smith's plugin API\n")
	test := "go test ./..."
	if lang == "rust" {
		test = "./build.sh test"
	}
	fmt.Fprintf(w, "It contributes the tool %s and the command /%s. Next:\n", d.Tool, name)
	fmt.Fprintf(w, "  cd %s && %s && ./build.sh\n", dir, test)
	fmt.Fprintf(w, "  smith --plugin %s eval \"/%s Ada\"\n", dir, name)
	fmt.Fprintf(w, "  smith plugin install %s\n", dir)
	return nil
}
