package main

import (
	"context"
	"fmt"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// run executes the smith command line and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr *os.File) int {
	root := rootCommand()
	root.Writer = stdout
	root.ErrWriter = stderr
	if err := root.Run(ctx, args); err != nil {
		fmt.Fprintf(stderr, "smith: %v\n", err)
		return exitCode(err)
	}
	return 0
}
