package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/mcp"
	"github.com/urfave/cli/v3"
)

func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve Smith's tools and sessions over the Model Context Protocol on stdin/stdout",
		Description: "Serves MCP over stdio for a client that spawns it (Claude Desktop, Cursor, another\n" +
			"agent): the built-in and active plugin tools as MCP tools, every stored session as\n" +
			"resources (smith://sessions/ID/transcript.md and .jsonl), progress notifications while\n" +
			"a command runs, and cancellation. Tool calls act in the working directory and are\n" +
			"recorded in one session's effect journal: --session NAME, or a new auto-named session\n" +
			"(named on stderr and in the server's instructions); a call that changes files is\n" +
			"snapshotted before and after, so 'smith session diff' and 'undo' cover it. stdout\n" +
			"carries only MCP frames; diagnostics go to stderr.\n\n" +
			"Client configuration: {\"command\": \"smith\", \"args\": [\"mcp\", \"--cwd\", \"/path/to/project\"]}",
		Flags: append(configFlags("trust-project"),
			&cli.StringFlag{Name: "cwd", Aliases: []string{"C"}, Usage: "working `DIR` the tools act in (default: the current directory)"},
			&cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "record the tool calls in the session called `NAME`, creating it if needed (default: a new session named mcp, mcp-2, …)"},
		),
		Action: mcpAction,
	}
}

func mcpAction(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErrorf("mcp: unexpected argument %q; smith mcp takes flags only (see smith mcp --help)", cmd.Args().First())
	}
	cwd, err := workDir(cmd, cmd.String("cwd"))
	if err != nil {
		return err
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{cwd: cwd, plugins: true})
	if err != nil {
		return err
	}
	defer rt.Close(context.WithoutCancel(ctx))
	var sess *runtime.Session
	if name := cmd.String("session"); name != "" {
		sess, err = rt.OpenOrCreateSession(ctx, name)
		if err != nil {
			err = fmt.Errorf("--session %q: %w", name, err)
		}
	} else {
		sess, err = rt.NewSession(ctx, runtime.NewSessionOptions{NameHint: "mcp"})
	}
	if err != nil {
		return cmdError(cmd, err)
	}
	stderr := cmd.Root().ErrWriter
	srv, err := mcp.New(ctx, mcp.Options{Runtime: rt, Session: sess, Version: version, Log: stderr})
	if err != nil {
		return cmdError(cmd, err)
	}
	info := sess.Info()
	name := info.ID
	if info.Name != "" {
		name = info.Name + " (" + info.ID + ")"
	}
	fmt.Fprintf(stderr, "smith mcp: serving %s over stdio; tool calls are recorded in session %s\n", cwd, name)
	runErr := srv.Serve(ctx, os.Stdin, cmd.Root().Writer)
	if errors.Is(context.Cause(ctx), errInterrupted) {
		runErr = nil
	}
	return errors.Join(runErr, sess.Close(context.WithoutCancel(ctx)))
}
