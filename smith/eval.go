package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/urfave/cli/v3"
)

// maxPromptBytes bounds a prompt read from standard input.
const maxPromptBytes = 1 << 20

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:      "eval",
		Usage:     "run one prompt without the TUI, recording it in a session (also: smith -p PROMPT)",
		ArgsUsage: "[PROMPT | -]",
		Description: "Runs the agent on PROMPT (read from standard input when PROMPT is - or absent\n" +
			"and input is not a terminal) and prints its work. Every run is recorded in a named\n" +
			"session under Smith's data directory unless --no-session is given.\n\n" +
			"A PROMPT of the form /NAME [ARGS] runs the command NAME a plugin contributes (as the\n" +
			"interactive mode does: smith eval \"/init\" writes AGENTS.md), and then the prompt the\n" +
			"command asks for, if any; start the prompt with // to send a leading / as text. With\n" +
			"--output json the command's result is one line {\"type\":\"command_result\",...}.\n\n" +
			"Exit status: 0 success, 1 model or tool failure, 2 usage error, 130 aborted (SIGINT).\n\n" +
			"Try it without any key: smith demo, or smith eval --model mock \"fix the bug\" in a demo project.",
		Flags: append(configFlags(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "text", Usage: "output `FORMAT`: text, or json (one event per line)", Sources: cli.EnvVars("SMITH_OUTPUT")},
			&cli.StringFlag{Name: "cwd", Aliases: []string{"C"}, Usage: "working `DIR` the tools act in (default: the current directory)"},
			&cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "continue the session called `NAME`, or create it"},
			&cli.BoolFlag{Name: "continue", Aliases: []string{"c"}, Usage: "continue the most recently used session of this working directory"},
			&cli.StringFlag{Name: "resume", Aliases: []string{"r"}, Usage: "resume the session with this `ID|NAME` (an id prefix of 4+ characters works)"},
			&cli.BoolFlag{Name: "no-session", Usage: "record into a temporary store, removed after a clean run and kept (its path printed) after an abort"},
		),
		Action: evalAction,
	}
}

// sessionChoice is how eval picks its session: exactly one of these is set,
// or none (auto-create a named session).
type sessionChoice struct {
	name      string // --session
	resume    string // --resume
	cont      bool   // --continue
	noSession bool   // --no-session
}

func (c sessionChoice) validate() error {
	var set []string
	if c.name != "" {
		set = append(set, "--session")
	}
	if c.resume != "" {
		set = append(set, "--resume")
	}
	if c.cont {
		set = append(set, "--continue")
	}
	if c.noSession {
		set = append(set, "--no-session")
	}
	if len(set) > 1 {
		return usageErrorf("eval: %s cannot be combined; pick one way to choose the session", strings.Join(set, " and "))
	}
	return nil
}

func evalAction(ctx context.Context, cmd *cli.Command) error {
	output := cmd.String("output")
	if output != "text" && output != "json" {
		return usageErrorf("eval: --output %q (or SMITH_OUTPUT) is not a format; use --output text or --output json", output)
	}
	choice := sessionChoice{name: cmd.String("session"), resume: cmd.String("resume"), cont: cmd.Bool("continue"), noSession: cmd.Bool("no-session")}
	if err := choice.validate(); err != nil {
		return err
	}
	cwd, err := workDir(cmd, cmd.String("cwd"))
	if err != nil {
		return err
	}
	// The runtime's notes go to stderr in both formats: standard output
	// stays the events alone.
	rt, err := openRuntime(ctx, cmd, runtimeOptions{cwd: cwd, plugins: true, ephemeral: choice.noSession})
	if err != nil {
		return err
	}
	rt.StartCatalogRefresh(ctx)
	prompt, err := evalPrompt(cmd)
	if err != nil {
		_ = rt.Close(ctx)
		return err
	}
	sess, err := openEvalSession(ctx, rt, choice, prompt)
	if err != nil {
		_ = rt.Close(ctx)
		return cmdError(cmd, err)
	}
	out := bufio.NewWriter(cmd.Root().Writer)
	r := &evalRun{cmd: cmd, sess: sess, prompt: prompt, out: out, json: output == "json", text: &textout.Writer{W: out, Diag: cmd.Root().ErrWriter}}
	runErr := r.run(ctx)
	info := sess.Info()
	closeErr := rt.Close(context.WithoutCancel(ctx))
	return r.finish(info, rt.Kept(), choice.noSession, errors.Join(runErr, closeErr))
}

// openEvalSession opens or creates the session chosen by c.
func openEvalSession(ctx context.Context, rt *runtime.Runtime, c sessionChoice, prompt string) (*runtime.Session, error) {
	switch {
	case c.resume != "":
		s, err := rt.OpenSession(ctx, c.resume)
		if err != nil {
			return nil, fmt.Errorf("--resume %q: %w", c.resume, unprefixed{err})
		}
		return s, nil
	case c.cont:
		s, err := rt.ContinueSession(ctx)
		if err != nil {
			return nil, fmt.Errorf("--continue: %w; or drop --continue to start a new session", unprefixed{err})
		}
		return s, nil
	case c.name != "":
		s, err := rt.OpenOrCreateSession(ctx, c.name)
		if err != nil {
			return nil, fmt.Errorf("--session: %w", unprefixed{err})
		}
		return s, nil
	}
	return rt.NewSession(ctx, runtime.NewSessionOptions{NameHint: prompt})
}

// evalPrompt returns the prompt argument, or standard input for "-" or
// when no argument is given and input is not a terminal.
func evalPrompt(cmd *cli.Command) (string, error) {
	args := cmd.Args().Slice()
	if len(args) > 1 {
		return "", usageErrorf("eval: got %d arguments; quote the prompt as one argument, such as smith eval \"fix the bug\"", len(args))
	}
	if len(args) == 1 && args[0] != "-" {
		if strings.TrimSpace(args[0]) == "" {
			return "", usageErrorf("eval: the PROMPT argument is empty; say what the agent should do")
		}
		return args[0], nil
	}
	if len(args) == 0 {
		if f, ok := cmd.Root().Reader.(*os.File); ok && isTerminal(f) {
			return "", usageErrorf("eval: no PROMPT given; pass it as an argument, or pipe it to standard input")
		}
	}
	b, err := io.ReadAll(io.LimitReader(cmd.Root().Reader, maxPromptBytes+1))
	if err != nil {
		return "", fmt.Errorf("eval: read the prompt from standard input: %w", err)
	}
	if len(b) > maxPromptBytes {
		return "", usageErrorf("eval: the prompt on standard input exceeds %d bytes; shorten it or put the material in a file the agent can read", maxPromptBytes)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", usageErrorf("eval: the prompt on standard input is empty; pass PROMPT as an argument or pipe some text")
	}
	return string(b), nil
}

// evalRun is one eval run: it submits the prompt and prints the events.
type evalRun struct {
	cmd    *cli.Command
	sess   *runtime.Session
	prompt string
	out    *bufio.Writer
	json   bool
	text   *textout.Writer // renders and tallies the text output
	tally  textout.Tally   // tallies the JSON output
	end    protocol.AgentEnd
	// commandOnly: the prompt was a command that asked for no run.
	commandOnly bool
}

// run runs the prompt as a command when it is one (a command needs no
// model), then prepares the session (a misconfigured model fails here,
// before anything is recorded), submits the prompt and prints the run's
// events until it settles. A cancelled ctx (SIGINT) aborts the run.
func (r *evalRun) run(ctx context.Context) error {
	prompt, err := r.command(ctx)
	if err != nil || prompt == "" {
		return err
	}
	if err := r.sess.Prepare(ctx); err != nil {
		return cmdError(r.cmd, err)
	}
	sub := r.sess.Subscribe()
	defer sub.Close()
	if err := r.sess.Submit(context.WithoutCancel(ctx), protocol.PromptParams{Text: prompt}); err != nil {
		return cmdError(r.cmd, err)
	}
	stop := context.AfterFunc(ctx, r.sess.Abort)
	defer stop()
	var writeErr error
	for ev := range sub.Events() {
		if writeErr == nil {
			writeErr = r.print(ev)
			if writeErr != nil {
				r.sess.Abort() // keep draining so the run settles
			}
		}
		if e, ok := ev.(protocol.AgentEnd); ok {
			r.end = e
		}
		if _, ok := ev.(protocol.Settled); ok {
			break
		}
	}
	if writeErr != nil {
		return fmt.Errorf("eval: write the output: %w", writeErr)
	}
	end, err := r.sess.Wait(context.WithoutCancel(ctx))
	if err == nil && end.Reason != "" {
		r.end = end
	}
	return err
}

// print writes one event: a JSON line, or its text rendering.
func (r *evalRun) print(ev protocol.Event) error {
	if r.json {
		r.tally.Observe(ev)
		b, err := protocol.MarshalEvent(ev)
		if err != nil {
			return err
		}
		if _, err := r.out.Write(append(b, '\n')); err != nil {
			return err
		}
	} else if err := r.text.Event(ev); err != nil {
		return err
	}
	return r.out.Flush()
}

// finish reports how the run ended and returns the command's error (nil
// for success): the session it was recorded in, and for a failed run one
// paragraph saying what failed, why and what to do.
func (r *evalRun) finish(info protocol.SessionInfo, kept string, ephemeral bool, err error) error {
	stderr := r.cmd.Root().ErrWriter
	name := info.ID
	if info.Name != "" {
		name = info.Name + " (" + info.ID + ")"
	}
	switch {
	case kept != "":
		fmt.Fprintf(stderr, "smith: kept the temporary session store %s (the run did not end cleanly); inspect it with 'smith session show %s'\n", kept, info.Path)
	case !ephemeral && !r.json && info.Entries > 0:
		fmt.Fprintf(stderr, "session: %s\n", name)
	}
	if err != nil {
		return err
	}
	if r.commandOnly {
		return nil
	}
	resume := "the session " + name + " keeps the transcript; continue it with 'smith eval --resume " + info.ID + " \"…\"'"
	if ephemeral {
		resume = "the run was not kept (--no-session); run it again, or without --no-session to keep it"
		if kept != "" {
			resume = "its transcript is in " + info.Path
		}
	}
	switch r.end.Reason {
	case protocol.EndCompleted:
		return nil
	case protocol.EndAborted:
		return abortError(fmt.Errorf("eval: aborted; every tool call has its result; %s", resume))
	case protocol.EndProviderError:
		tally := r.text.Tally
		if r.json {
			tally = r.tally
		}
		return errors.New(tally.Failure(r.end.Error, resume))
	case "":
		return fmt.Errorf("eval: the run ended without reporting how; %s", resume)
	}
	msg := r.end.Error
	if msg == "" {
		msg = textout.EndReason(r.end.Reason)
	}
	return fmt.Errorf("eval: the run ended: %s; %s", msg, resume)
}
