package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/replay"
	"github.com/urfave/cli/v3"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "rebuild a recorded session and print it, with no provider, key or network",
		ArgsUsage: "SESSION",
		Description: "Rebuilds the session SESSION (a name, an id, an id prefix of 4+ characters, or the\n" +
			"path of a .session file) from what it recorded and prints its conversation. The\n" +
			"file is only read. Recorded provider responses are decoded again through their\n" +
			"codec and compared with the recorded messages; a difference is a divergence.\n" +
			"Effects recorded without a completion are shown as unknown and never run again.\n" +
			"Records written by another version of Smith that this one does not know are\n" +
			"skipped, and the replay says so.\n\n" +
			"--re-execute runs every recorded tool call again, in order, in a scratch copy of\n" +
			"the session's working directory (or of --cwd DIR: give it the tree as it was when\n" +
			"the session started, since the session's own edits are in the directory now) and\n" +
			"reports each call whose output or mutation state differs. The original tree is\n" +
			"never touched.\n\n" +
			"--speed real waits the recorded time between entries, each wait capped at 2s;\n" +
			"Nx is N times faster than that; instant (the default) waits for nothing.\n\n" +
			"Exit status: 0 the replay matched, 1 a divergence was reported (or the session\n" +
			"could not be read), 2 usage error.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "speed", Value: "instant", Usage: "pace: `instant`, real (recorded gaps, each capped at 2s) or Nx (N times faster than real)"},
			&cli.StringFlag{Name: "turns", Usage: "replay only the user's turns `A..B` (from 1; A.. and ..B work, and one turn N)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "text", Usage: "output `FORMAT`: text, or json (one event per line, as eval prints them)"},
			&cli.BoolFlag{Name: "re-execute", Usage: "run the recorded tool calls again in a scratch copy of the working tree and report divergences"},
			&cli.StringFlag{Name: "cwd", Aliases: []string{"C"}, Usage: "with --re-execute, copy `DIR` instead of the session's recorded working directory"},
		},
		Action: replayAction,
	}
}

func replayAction(ctx context.Context, cmd *cli.Command) error {
	args := cmd.Args().Slice()
	if len(args) != 1 {
		return usageErrorf("replay: got %d arguments; name one session, such as smith replay fix-the-bug (list them with 'smith session ls')", len(args))
	}
	output, err := outputFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	speed, err := replay.ParseSpeed(cmd.String("speed"))
	if err != nil {
		return usageErrorf("replay: %v", err)
	}
	from, to, err := replay.ParseTurns(cmd.String("turns"))
	if err != nil {
		return usageErrorf("replay: %v", err)
	}
	tree := ""
	if cmd.IsSet("cwd") {
		if !cmd.Bool("re-execute") {
			return usageErrorf("replay: --cwd applies to --re-execute only (it names the tree the tools run again in); add --re-execute or drop --cwd")
		}
		if tree, err = workDir(cmd, cmd.String("cwd")); err != nil {
			return err
		}
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{plugins: true, quiet: output == "json"})
	if err != nil {
		return err
	}
	defer func() { _ = rt.Close(context.WithoutCancel(ctx)) }()
	stderr := cmd.Root().ErrWriter
	p := &replay.Player{Out: cmd.Root().Writer, Diag: stderr, JSON: output == "json", Speed: speed}
	rep, err := rt.Replay(ctx, args[0], runtime.ReplayOptions{From: from, To: to, ReExecute: cmd.Bool("re-execute"), Tree: tree,
		Emit: func(ev runtime.ReplayEvent) error { return p.Event(ctx, ev) }})
	if ferr := p.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("replay: write the output: %w", ferr)
	}
	if err != nil {
		if errors.Is(err, runtime.ErrUsage) && cmd.IsSet("turns") && strings.Contains(err.Error(), "turn range") {
			return usageErrorf("replay: --turns %q: %s", cmd.String("turns"), trimRuntime(err))
		}
		return cmdError(cmd, err)
	}
	if output == "text" {
		fmt.Fprintf(stderr, "smith: %s\n", replay.Summary(rep))
	}
	if !rep.Matched() {
		return &exitError{code: exitFailure, err: fmt.Errorf("replay: %d divergence(s) between session %s and what replay observed (listed above)", len(rep.Divergences), rep.Session)}
	}
	return nil
}

// trimRuntime is err's message without the runtime's prefix.
func trimRuntime(err error) string {
	msg := err.Error()
	if len(msg) > len("runtime: ") && msg[:len("runtime: ")] == "runtime: " {
		return msg[len("runtime: "):]
	}
	return msg
}
