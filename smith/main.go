package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v3"
)

// errInterrupted is the cancellation cause of the first SIGINT or SIGTERM.
var errInterrupted = errors.New("interrupted by a signal")

func main() {
	if text, ok := quickAnswer(os.Args[1:]); ok {
		// The root help and the version need no command tree (quick.go).
		if _, err := os.Stdout.WriteString(text); err != nil {
			fmt.Fprintf(os.Stderr, "smith %s: could not print to standard output: %v; check the file or pipe it goes to\n", strings.Join(os.Args[1:], " "), err)
			os.Exit(exitFailure)
		}
		return
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	// A closed output pipe is a write error that aborts the run cleanly,
	// not a signal that kills the process mid-effect.
	signal.Ignore(syscall.SIGPIPE)
	go func() {
		<-sigs
		cancel(errInterrupted) // the first signal aborts cleanly
		<-sigs
		os.Exit(exitAbort) // the second does not wait
	}()
	os.Exit(run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run executes the smith command line and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := rootCommand()
	root.Reader = stdin
	root.Writer = stdout
	root.ErrWriter = stderr
	// The exit code is decided here, never inside the cli package.
	root.ExitErrHandler = func(context.Context, *cli.Command, error) {}
	markUsageErrors(root)
	if err := root.Run(ctx, args); err != nil {
		fmt.Fprintf(stderr, "smith: %v\n", err)
		return exitCode(err)
	}
	return exitOK
}

// markUsageErrors makes flag and argument parse errors of every command
// usage errors (exit 2) that point at the command's help.
func markUsageErrors(c *cli.Command) {
	c.OnUsageError = func(_ context.Context, cmd *cli.Command, err error, _ bool) error {
		name := cmd.FullName()
		return usageErrorf("%s: %v; see '%s --help'", strings.TrimPrefix(name, "smith "), err, name)
	}
	for _, sub := range c.Commands {
		markUsageErrors(sub)
	}
}
