package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/smith-agent/smith/core/config"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/sysplugins"
	"github.com/urfave/cli/v3"
)

// runtimeOptions say what a command needs of the runtime.
type runtimeOptions struct {
	// cwd is the working directory; "" is the process's.
	cwd string
	// plugins loads the system plugins (the tools, the codecs, the
	// product plugin); commands that only read configuration skip them.
	plugins bool
	// ephemeral is eval --no-session.
	ephemeral bool
	// quiet drops the runtime's notes instead of printing them to stderr.
	quiet bool
	// note, when set, receives the runtime's notes instead (the
	// interactive mode shows them in its transcript).
	note func(string)
	// answers says a person answers the plugins' confirmation requests
	// (the interactive mode; rpc --confirmations).
	answers bool
}

// givenFlags returns the configuration flags given to cmd or, for each
// flag it was not given, to its nearest parent (smith --model X eval is
// smith eval --model X), by the flag names of config.Options.
func givenFlags(cmd *cli.Command) map[string]string {
	flags := map[string]string{}
	for _, opt := range config.Options() {
		// The command's own flag, else the nearest parent's: smith
		// --model X eval is smith eval --model X.
		var set *cli.Command
		for _, c := range cmd.Lineage() {
			if c.IsSet(opt.Flag) {
				set = c
				break
			}
		}
		switch {
		case set == nil:
		case opt.Bool:
			flags[opt.Flag] = strconv.FormatBool(set.Bool(opt.Flag))
		case opt.List:
			flags[opt.Flag] = strings.Join(set.StringSlice(opt.Flag), string(os.PathListSeparator))
		default:
			flags[opt.Flag] = set.String(opt.Flag)
		}
	}
	return flags
}

// openRuntime opens the runtime for cmd: its configuration flags (as
// config.Options declares them), --home / SMITH_HOME, and the embedded
// system plugins when o.plugins. Notes go to stderr as "smith: …" lines.
// An invalid configuration is a usage error.
func openRuntime(ctx context.Context, cmd *cli.Command, o runtimeOptions) (*runtime.Runtime, error) {
	flags := givenFlags(cmd)
	stderr := cmd.Root().ErrWriter
	notify := func(s string) { fmt.Fprintf(stderr, "smith: %s\n", s) }
	if o.quiet {
		notify = nil
	}
	if o.note != nil {
		notify = o.note
	}
	// discover finds the system plugins and, after them, the user's, a
	// trusted project's and --plugin packages (plugin_cmd.go).
	discover := func(ctx context.Context, note func(string)) ([]plugin.Artifact, error) {
		arts, err := sysplugins.Artifacts()
		if err != nil {
			return nil, err
		}
		extra, err := extraPlugins(ctx, cmd, o.cwd, flags, arts, note)
		if err != nil {
			return nil, err
		}
		return append(arts, extra...), nil
	}
	var arts []plugin.Artifact
	var rediscover func(context.Context) ([]plugin.Artifact, []string, error)
	if o.plugins {
		note := notify
		if note == nil {
			note = func(string) {}
		}
		var err error
		if arts, err = discover(ctx, note); err != nil {
			return nil, err
		}
		rediscover = func(ctx context.Context) ([]plugin.Artifact, []string, error) {
			var notes []string
			arts, err := discover(ctx, func(n string) { notes = append(notes, n) })
			return arts, notes, err
		}
	}
	rt, err := runtime.Open(ctx, runtime.Config{Cwd: o.cwd, Home: cmd.String("home"), Flags: flags, Plugins: arts, Discover: rediscover,
		Version: version, Ephemeral: o.ephemeral, Notify: notify, Answers: o.answers})
	if err != nil {
		return nil, cmdError(cmd, err)
	}
	return rt, nil
}

// cmdError prefixes a runtime error with the command's name and makes an
// error the user fixes by changing input a usage error (exit 2).
func cmdError(cmd *cli.Command, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, syscall.EPIPE) {
		return err // the reader went away: run says nothing (main.go)
	}
	msg := strings.TrimPrefix(err.Error(), "runtime: ")
	if errors.Is(err, runtime.ErrUsage) {
		return usageErrorf("%s: %s", cmdName(cmd), msg)
	}
	return fmt.Errorf("%s: %s", cmdName(cmd), msg)
}

// unprefixed is a runtime error wrapped under a flag's name, without its
// package prefix ("runtime: "), which means nothing to a user; errors.Is
// still sees through it (ErrUsage decides the exit code).
type unprefixed struct{ err error }

func (u unprefixed) Error() string { return strings.TrimPrefix(u.err.Error(), "runtime: ") }
func (u unprefixed) Unwrap() error { return u.err }

// workDir resolves a --cwd flag value to an absolute directory; "" is the
// process's working directory.
func workDir(cmd *cli.Command, flag string) (string, error) {
	if flag == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("%s: cannot read the current directory: %w; pass --cwd DIR", cmdName(cmd), err)
		}
		return wd, nil
	}
	abs, err := absDir(flag)
	if err != nil {
		return "", usageErrorf("%s: --cwd %q %v; pass an existing directory for the tools to work in", cmdName(cmd), flag, err)
	}
	return abs, nil
}

// absDir returns dir as an absolute path, or an error phrase saying why it
// is not a directory.
func absDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", errors.New("is not a directory")
	}
	return abs, nil
}
