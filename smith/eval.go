package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/smith-agent/smith/smith/internal/toolbox"
	"github.com/urfave/cli/v3"
)

// tools is where eval's tools come from; the one place to swap their
// implementation.
var tools toolbox.Source = toolbox.Plugins

// maxPromptBytes bounds a prompt read from standard input.
const maxPromptBytes = 1 << 20

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:      "eval",
		Usage:     "run one prompt without the TUI, recording it in a session",
		ArgsUsage: "[PROMPT | -]",
		Description: "Runs the agent on PROMPT (read from standard input when PROMPT is - or absent\n" +
			"and input is not a terminal) and prints its work. Every run is recorded in a named\n" +
			"session under Smith's data directory unless --no-session is given.\n\n" +
			"Exit status: 0 success, 1 model or tool failure, 2 usage error, 130 aborted (SIGINT).\n\n" +
			"Try it without any key: smith demo, or smith eval --model mock \"fix the bug\" in a demo project.",
		Flags: append(configFlags(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "text", Usage: "output `FORMAT`: text, or json (one agent event per line)", Sources: cli.EnvVars("SMITH_OUTPUT")},
			&cli.StringFlag{Name: "cwd", Aliases: []string{"C"}, Usage: "working `DIR` the tools act in (default: the current directory)"},
			&cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "continue the session called `NAME`, or create it"},
			&cli.BoolFlag{Name: "continue", Aliases: []string{"c"}, Usage: "continue the most recently used session"},
			&cli.StringFlag{Name: "resume", Aliases: []string{"r"}, Usage: "resume the session with this `ID|NAME` (an id prefix of 4+ characters works)"},
			&cli.BoolFlag{Name: "no-session", Usage: "record into a temporary store, removed after a clean run and kept (its path printed) after an abort"},
		),
		Action: evalAction,
	}
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
	cwd, err := evalCwd(cmd.String("cwd"))
	if err != nil {
		return err
	}
	cfg, err := loadConfig(cmd, cwd, cmd.ErrWriter)
	if err != nil {
		return err
	}
	rc := newRunCatalog(cmd, cfg, cmd.ErrWriter)
	defer startCatalogRefresh(ctx, cmd, rc)()
	if cfg.Model.Value == "" {
		return usageErrorf("eval: no model selected; pass --model PROVIDER/MODEL, set SMITH_MODEL, or write model \"…\" in smith.kdl (try --model mock for the offline demo; list models with 'smith models')")
	}
	prompt, err := evalPrompt(cmd)
	if err != nil {
		return err
	}
	homeDir := ""
	if !choice.noSession {
		if homeDir, err = dataDir(cmd); err != nil {
			return err
		}
	}
	// The tools load (and compile, in the background) while the model and
	// the session are opened.
	ts, err := tools(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = ts.Close(context.WithoutCancel(ctx)) }()
	m, err := openModel(ctx, cmd, cfg, rc, cwd, cmd.ErrWriter)
	if err != nil {
		return err
	}
	defer func() { _ = m.close(context.WithoutCancel(ctx)) }()
	sess, err := openEvalSession(choice, homeDir, prompt)
	if err != nil {
		return err
	}
	end, runErr := runEval(ctx, cmd, sess, ts, m, cwd, cfg.IgnorePatterns(), prompt, output)
	closeErr := sess.file.Close()
	return finishEval(cmd.ErrWriter, sess, end, errors.Join(runErr, closeErr), output)
}

// evalCwd resolves --cwd to an absolute directory.
func evalCwd(flag string) (string, error) {
	if flag == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("eval: cannot read the current directory: %w; pass --cwd DIR", err)
		}
		return wd, nil
	}
	abs, err := filepath.Abs(flag)
	if err != nil {
		return "", usageErrorf("eval: --cwd %q: %w", flag, err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", usageErrorf("eval: --cwd %q is not a directory; pass an existing directory for the tools to work in", flag)
	}
	return abs, nil
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
		if f, ok := cmd.Root().Reader.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				return "", usageErrorf("eval: no PROMPT given; pass it as an argument, or pipe it to standard input")
			}
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

// runEval runs the prompt in the open session and writes the events.
func runEval(ctx context.Context, cmd *cli.Command, sess *evalSession, ts toolbox.Tools, m *evalModel, cwd string, ignore []string, prompt, output string) (protocol.AgentEnd, error) {
	store, err := session.New(sess.file)
	if err != nil {
		return protocol.AgentEnd{}, err
	}
	// Recording must not be cut short by an abort.
	rctx := context.WithoutCancel(ctx)
	journal, recovered, err := effect.Open(rctx, store, effect.Options{})
	if err != nil {
		return protocol.AgentEnd{}, fmt.Errorf("eval: recover the effects of session %s: %w", sess, err)
	}
	for _, c := range recovered {
		fmt.Fprintf(cmd.ErrWriter, "smith: effect %s of an earlier run was interrupted; recorded as unknown and not retried\n", c.ID)
	}
	history, err := session.Messages(sess.file.Session())
	if err != nil {
		return protocol.AgentEnd{}, fmt.Errorf("eval: read session %s: %w", sess, err)
	}
	toolset, err := ts.Bind(journal, cwd, ignore)
	if err != nil {
		return protocol.AgentEnd{}, err
	}
	p, err := m.provider(journal)
	if err != nil {
		return protocol.AgentEnd{}, err
	}
	a, err := agent.New(agent.Config{Provider: p, Model: m.id, Cwd: cwd, Tools: toolset, Recorder: store, History: history})
	if err != nil {
		return protocol.AgentEnd{}, err
	}
	run, err := a.Start(ctx, model.UserText(prompt))
	if err != nil {
		return protocol.AgentEnd{}, err
	}
	out := bufio.NewWriter(cmd.Root().Writer)
	text := &textout.Writer{W: out}
	var writeErr error
	for ev := range run.Events() {
		if writeErr != nil {
			continue // keep draining so the run settles
		}
		if output == "json" {
			b, err := protocol.MarshalEvent(ev)
			if err == nil {
				_, err = out.Write(append(b, '\n'))
			}
			writeErr = err
		} else {
			writeErr = text.Event(ev)
		}
		if writeErr == nil {
			writeErr = out.Flush()
		}
		if writeErr != nil {
			run.Abort()
		}
	}
	end := run.Wait()
	if writeErr != nil {
		return end, fmt.Errorf("eval: write the output: %w", writeErr)
	}
	return end, nil
}

// finishEval reports how the run ended, removes a clean --no-session store
// and returns the command's error (nil for success).
func finishEval(stderr io.Writer, sess *evalSession, end protocol.AgentEnd, err error, output string) error {
	abnormal := err != nil || end.Reason == protocol.EndAborted || end.Reason == protocol.EndRecordFailed || end.Reason == ""
	if sess.tempDir != "" {
		if abnormal {
			fmt.Fprintf(stderr, "smith: kept the temporary session store %s (the run did not end cleanly); inspect it with 'smith session show %s'\n", sess.tempDir, sess.info.Path)
		} else if rmErr := os.RemoveAll(sess.tempDir); rmErr != nil {
			fmt.Fprintf(stderr, "smith: could not remove the temporary session store %s: %v; delete it by hand\n", sess.tempDir, rmErr)
		}
	} else if output == "text" {
		fmt.Fprintf(stderr, "session: %s\n", sess)
	}
	switch {
	case err != nil:
		return err
	case end.Reason == protocol.EndCompleted:
		return nil
	case end.Reason == protocol.EndAborted:
		return abortError(fmt.Errorf("eval: aborted; session %s is consistent (every tool call has its result); continue it with 'smith eval --resume %s'", sess, sess.info.ID))
	default:
		msg := end.Error
		if msg == "" {
			msg = string(end.Reason)
		}
		return fmt.Errorf("eval: the run ended with %s: %s; the session %s keeps the transcript", end.Reason, msg, sess)
	}
}
