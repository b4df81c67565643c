package main

import (
	"context"
	"fmt"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/urfave/cli/v3"
)

// compactCommand is 'smith session compact': the model summarises the
// older part of a session's selected branch, so that its next turns carry
// the summary instead (nothing is deleted).
func compactCommand(ref string) *cli.Command {
	return &cli.Command{Name: "compact", Usage: "summarise the older part of a session's conversation so that later turns fit the model's context (the full history stays)",
		ArgsUsage: ref,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "instructions", Aliases: []string{"i"}, Usage: "add `TEXT` to the summary prompt, such as \"keep the failing test's output\""},
		},
		Action: sessionCompact}
}

func sessionCompact(ctx context.Context, cmd *cli.Command) error {
	ref, err := sessionArg(cmd)
	if err != nil {
		return err
	}
	// The summary prompt and the provider codecs are plugins.
	rt, err := openRuntime(ctx, cmd, runtimeOptions{plugins: true})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	open := rt.OpenSession
	if isPath(ref) {
		open = rt.OpenSessionFile
	}
	s, err := open(ctx, ref)
	if err != nil {
		return cmdError(cmd, err)
	}
	// The compaction's routing notices (retries, failovers) go to stderr
	// as they happen; its end is printed below.
	sub := s.Subscribe()
	done := make(chan struct{})
	diag := &textout.Writer{W: cmd.Root().ErrWriter}
	go func() {
		defer close(done)
		for ev := range sub.Events() {
			switch ev.(type) {
			case protocol.ProviderRetry, protocol.ProviderFailover, protocol.Notice:
				_ = diag.Event(ev)
			}
		}
	}()
	res, err := s.Compact(ctx, protocol.CompactParams{Instructions: cmd.String("instructions")})
	sub.Close()
	<-done
	if err != nil {
		return cmdError(cmd, err)
	}
	w := textout.SafeWriter{W: cmd.Root().Writer}
	fmt.Fprintf(w, "%s\ncompaction entry %s; 'smith session show %s' still prints the whole history\n",
		textout.CompactionEnd(protocol.CompactionEnd{CompactResult: res}), res.Entry, ref)
	return s.Close(ctx)
}
