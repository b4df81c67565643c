package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/rpc"
	"github.com/urfave/cli/v3"
)

func rpcCommand() *cli.Command {
	return &cli.Command{
		Name:  "rpc",
		Usage: "serve Smith as JSON-RPC 2.0 on stdin/stdout, one message per line (for editors and scripts)",
		Description: "Reads JSON-RPC 2.0 requests from standard input, one per line, and writes the\n" +
			"responses and an \"event\" notification per session event to standard output, one\n" +
			"per line; stdout carries nothing else, notes go to stderr (or --log FILE). Methods:\n" +
			"prompt, steer, follow_up, queue.*, abort, confirm, wait, session.*, model.*,\n" +
			"commands.*, state, stats, shutdown; docs/rpc.md documents each one.\n\n" +
			"With no session flag the first prompt starts a new session named from its text.\n" +
			"At the end of input (or shutdown) a run still active is aborted; send wait first.\n\n" +
			"Try it: printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompt\",\"params\":{\"text\":\"fix the bug\"}}' \\\n" +
			"  '{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"wait\"}' | smith rpc --model mock   (in a smith demo project)",
		Flags: append(configFlags(),
			&cli.StringFlag{Name: "cwd", Aliases: []string{"C"}, Usage: "working `DIR` the tools act in (default: the current directory)"},
			&cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "serve the session called `NAME`, or create it"},
			&cli.BoolFlag{Name: "continue", Aliases: []string{"c"}, Usage: "serve the most recently used session of this working directory"},
			&cli.StringFlag{Name: "resume", Aliases: []string{"r"}, Usage: "serve the session with this `ID|NAME` (an id prefix of 4+ characters works)"},
			&cli.BoolFlag{Name: "no-session", Usage: "record into a temporary store, removed at exit after clean runs"},
			&cli.StringFlag{Name: "log", Usage: "append notes for people to `FILE` instead of stderr"},
			&cli.BoolFlag{Name: "confirmations", Usage: "the client answers the plugins' confirmation_request events with the confirm method (the permission policy in mode ask asks it); without this flag each is answered no at once"},
		),
		Action: rpcAction,
	}
}

func rpcAction(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErrorf("rpc: unexpected argument %q; smith rpc takes flags only and reads requests from standard input (see smith rpc --help)", cmd.Args().First())
	}
	choice := sessionChoice{name: cmd.String("session"), resume: cmd.String("resume"), cont: cmd.Bool("continue"), noSession: cmd.Bool("no-session")}
	if err := choice.validate(); err != nil {
		return usageErrorf("rpc: %s", trimCmd(err.Error(), "eval: "))
	}
	cwd, err := workDir(cmd, cmd.String("cwd"))
	if err != nil {
		return err
	}
	logw := cmd.Root().ErrWriter
	if path := cmd.String("log"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return usageErrorf("rpc: --log %q: %v; pass a file Smith can write", path, err)
		}
		defer f.Close()
		logw = f
	}
	// The runtime's notes go where the server's do, never to stdout.
	note := cmd.Root().ErrWriter
	cmd.Root().ErrWriter = logw
	rt, err := openRuntime(ctx, cmd, runtimeOptions{cwd: cwd, plugins: true, ephemeral: choice.noSession, answers: cmd.Bool("confirmations")})
	cmd.Root().ErrWriter = note
	if err != nil {
		return err
	}
	rt.StartCatalogRefresh(ctx)
	var sess *runtime.Session
	if choice.name != "" || choice.resume != "" || choice.cont {
		if sess, err = openEvalSession(ctx, rt, choice, ""); err != nil {
			_ = rt.Close(ctx)
			return cmdError(cmd, err)
		}
	}
	srv, err := rpc.New(rpc.Options{Runtime: rt, Session: sess, Log: logw})
	if err != nil {
		_ = rt.Close(ctx)
		return cmdError(cmd, err)
	}
	var in io.Reader = os.Stdin
	if r := cmd.Root().Reader; r != nil {
		in = r
	}
	serveErr := srv.Serve(ctx, in, cmd.Root().Writer)
	closeErr := rt.Close(context.WithoutCancel(ctx))
	if kept := rt.Kept(); kept != "" {
		fmt.Fprintf(logw, "smith: kept the temporary session store %s (a run did not end cleanly)\n", kept)
	}
	if errors.Is(context.Cause(ctx), errInterrupted) || errors.Is(serveErr, context.Canceled) {
		serveErr = nil
	}
	return cmdError(cmd, errors.Join(serveErr, closeErr))
}

// trimCmd drops a command prefix from a message.
func trimCmd(msg, prefix string) string {
	if len(msg) >= len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}
