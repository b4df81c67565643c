package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/runtime"

	"github.com/urfave/cli/v3"
)

func promptCommand() *cli.Command {
	return &cli.Command{
		Name:  "prompt",
		Usage: "inspect the system prompt the model is sent",
		Commands: []*cli.Command{
			{Name: "show", Usage: "print the system prompt a session in this directory would send, with the project's instructions (AGENTS.md), as resolved now",
				Flags: append(configFlags(),
					&cli.StringFlag{Name: "cwd", Aliases: []string{"C"}, Usage: "working `DIR` (default: the current directory)"},
					&cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "the prompt of the existing session `NAME|ID` (its model) instead of a new one"},
				),
				Action: promptShow},
		},
	}
}

func promptShow(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Present() {
		return usageErrorf("prompt show: takes no arguments, got %q; choose the directory with --cwd", strings.Join(cmd.Args().Slice(), " "))
	}
	cwd, err := workDir(cmd, cmd.String("cwd"))
	if err != nil {
		return err
	}
	// An ephemeral store: showing the prompt records nothing.
	rt, err := openRuntime(ctx, cmd, runtimeOptions{cwd: cwd, plugins: true, ephemeral: cmd.String("session") == ""})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	var s *runtime.Session
	if ref := cmd.String("session"); ref != "" {
		s, err = rt.OpenSession(ctx, ref)
	} else {
		s, err = rt.NewSession(ctx, runtime.NewSessionOptions{})
	}
	if err != nil {
		return cmdError(cmd, err)
	}
	defer s.Close(ctx)
	text, err := s.SystemPrompt(ctx)
	if err != nil {
		return cmdError(cmd, err)
	}
	w := cmd.Root().Writer
	if _, err := fmt.Fprintln(w, strings.TrimRight(text, "\n")); err != nil {
		return err
	}
	fmt.Fprintf(cmd.Root().ErrWriter, "smith: %d bytes, for model %s\n", len(text), s.Model().Name)
	return nil
}
