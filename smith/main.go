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

	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/urfave/cli/v3"
)

// errInterrupted is the cancellation cause of the first SIGINT or SIGTERM.
var errInterrupted = errors.New("interrupted by a signal")

func main() {
	// A bare smith on a terminal is the interactive mode, not the help.
	bare := len(os.Args) == 1 && isTerminal(os.Stdin) && isTerminal(os.Stdout)
	if text, ok := quickAnswer(os.Args[1:]); ok && !bare {
		// The root help and the version need no command tree (quick.go).
		if _, err := os.Stdout.WriteString(text); err != nil {
			fmt.Fprintf(os.Stderr, "smith %s: could not print to standard output: %v; check the file or pipe it goes to\n", strings.Join(os.Args[1:], " "), err)
			os.Exit(exitFailure)
		}
		return
	}
	deferStartupGC(os.Getenv)
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	// A closed output pipe is a write error that aborts the run cleanly,
	// not a signal that kills the process mid-effect.
	signal.Ignore(syscall.SIGPIPE)
	go func() {
		<-sigs
		cancel(errInterrupted) // the first signal aborts cleanly (a closed terminal's SIGHUP too)
		<-sigs
		os.Exit(exitAbort) // the second does not wait
	}()
	os.Exit(run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run executes the smith command line and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	args = printMode(args)
	root := rootCommand()
	root.Reader = stdin
	root.Writer = stdout
	root.ErrWriter = stderr
	// The exit code is decided here, never inside the cli package.
	root.ExitErrHandler = func(context.Context, *cli.Command, error) {}
	markUsageErrors(root)
	if err := root.Run(ctx, args); err != nil {
		if errors.Is(err, syscall.EPIPE) {
			// The reader went away (smith models | head): nothing more to
			// say, and nobody to say it to.
			return exitOK
		}
		// An error of the root command itself is already "smith: …"
		// (cmdName of the root is "smith").
		fmt.Fprintf(stderr, "smith: %s\n", textout.Safe(strings.TrimPrefix(err.Error(), "smith: ")))
		return exitCode(err)
	}
	return exitOK
}

// printMode rewrites "smith -p PROMPT …" (or --print), as Claude Code and
// Gemini CLI users type it, into "smith eval PROMPT …". Only a -p before
// any command name counts; flags before it stay where they are.
func printMode(args []string) []string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-p" || a == "--print":
			out := append([]string{args[0], "eval"}, args[1:i]...)
			return append(out, args[i+1:]...)
		case a == "--":
			return args
		case strings.HasPrefix(a, "-"):
			if (a == "--home") && i+1 < len(args) {
				i++ // the root flag's value
			}
		default:
			return args // a command name or an argument
		}
	}
	return args
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
