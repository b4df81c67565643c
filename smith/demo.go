package main

import (
	"context"
	"fmt"
	"os"

	"github.com/smith-agent/smith/smith/internal/demoproject"
	"github.com/urfave/cli/v3"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "watch Smith fix a bug offline, with the mock model (no key needed)",
		Description: "Writes a tiny shell project with a failing test into a new directory, then runs\n" +
			"  smith eval --model mock --cwd DIR \"" + demoproject.Prompt + "\"\n" +
			"The MOCK model follows an embedded script: it reads greet.sh, edits it and runs\n" +
			"the test through the real tools. The directory is kept so you can look at it.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "create the demo project in `DIR` (default: a new temporary directory)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "text", Usage: "output `FORMAT`: text or json"},
		},
		Action: demoAction,
	}
}

func demoAction(ctx context.Context, cmd *cli.Command) error {
	dir := cmd.String("dir")
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "smith-demo-"); err != nil {
			return fmt.Errorf("demo: create the demo directory: %w; check TMPDIR or pass --dir", err)
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return usageErrorf("demo: --dir %q: %v", dir, err)
	}
	if err := demoproject.Write(dir); err != nil {
		return err
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{cwd: dir, quiet: true})
	if err != nil {
		return err
	}
	name, err := rt.FreeName(demoproject.Prompt)
	_ = rt.Close(ctx)
	if err != nil {
		return cmdError(cmd, err)
	}
	stderr := cmd.Root().ErrWriter
	fmt.Fprintf(stderr, "demo project: %s (greet.sh has a bug; sh test.sh fails)\n", dir)
	fmt.Fprintf(stderr, "$ smith eval --model mock --cwd %s --session %s %q\n\n", dir, name, demoproject.Prompt)
	args := []string{"smith", "eval", "--model", "mock", "--cwd", dir, "--session", name, "--output", cmd.String("output"), demoproject.Prompt}
	if h := cmd.String("home"); h != "" {
		args = append([]string{"smith", "--home", h}, args[1:]...)
	}
	eval := rootCommand()
	eval.Reader, eval.Writer, eval.ErrWriter = cmd.Root().Reader, cmd.Root().Writer, stderr
	eval.ExitErrHandler = cmd.Root().ExitErrHandler
	markUsageErrors(eval)
	if err := eval.Run(ctx, args); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "\nsee the fix: cat %s/greet.sh\nsee the recorded turn: smith session show %s\n", dir, name)
	return nil
}
