package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/urfave/cli/v3"
)

// vcsCommands are the session commands over the file snapshots Smith
// takes around each turn.
func vcsCommands(ref string) []*cli.Command {
	force := &cli.BoolFlag{Name: "force", Usage: "overwrite files changed since the session's last snapshot (default: refuse, naming them)"}
	rewind := &cli.BoolFlag{Name: "rewind", Usage: "also move the conversation back, so the next prompt continues from there (a new branch; nothing is deleted)"}
	return []*cli.Command{
		{Name: "diff", Usage: "show what a session's turns changed in the files (default: the last turn against the files now)", ArgsUsage: ref,
			Flags: []cli.Flag{
				&cli.IntFlag{Name: "turn", Usage: "show what turn `N` changed (1 is the first; --list shows them)"},
				&cli.StringFlag{Name: "from", Usage: "compare the files at `ENTRY` (an entry id, a unique prefix, or turn:N) ..."},
				&cli.StringFlag{Name: "to", Usage: "... with the files at `ENTRY` (default: the files now)"},
				&cli.StringFlag{Name: "effect", Usage: "show what the one effect `ID` changed (a write, an edit, a command, a snapshot or a restore; an id or a unique prefix)"},
				&cli.BoolFlag{Name: "list", Usage: "list the turns with how many files each changed"},
				&cli.BoolFlag{Name: "stat", Usage: "only the changed paths, no patches"},
			},
			Action: sessionDiff},
		{Name: "snapshot", Usage: "record the files as they are now, hand edits included, so undo, redo and restore can come back to them", ArgsUsage: ref,
			Flags:  []cli.Flag{&cli.StringFlag{Name: "note", Aliases: []string{"m"}, Usage: "say why, in one line (shown by 'smith session show')"}},
			Action: sessionSnapshot},
		{Name: "undo", Usage: "restore the files to before the session's last turn that changed them", ArgsUsage: ref,
			Flags: []cli.Flag{force, rewind}, Action: sessionUndo},
		{Name: "redo", Usage: "restore the files the last undo took back", ArgsUsage: ref,
			Flags: []cli.Flag{force}, Action: sessionRedo},
		{Name: "restore", Usage: "restore the files to how they were at an entry of the session (time travel)", ArgsUsage: ref,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "at", Usage: "the `ENTRY`: an entry id or unique prefix (see 'smith session tree'), or turn:N for the start of turn N", Required: true},
				force, rewind,
			},
			Action: sessionRestore},
		reconcileCommand(ref),
	}
}

func sessionDiff(ctx context.Context, cmd *cli.Command) error {
	s, rt, err := openSessionArg(ctx, cmd)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	w := cmd.Root().Writer
	if cmd.Bool("list") {
		turns, err := s.Turns(ctx)
		if err != nil {
			return cmdError(cmd, err)
		}
		return printTurns(w, turns)
	}
	d, err := s.Diff(ctx, protocol.DiffParams{Turn: int(cmd.Int("turn")), From: cmd.String("from"), To: cmd.String("to"), Effect: cmd.String("effect")})
	if err != nil {
		return cmdError(cmd, err)
	}
	return printDiff(w, d, cmd.Bool("stat"))
}

// printTurns lists the turns and what each changed.
func printTurns(w io.Writer, turns []protocol.TurnSnapshots) error {
	if len(turns) == 0 {
		_, err := fmt.Fprintln(w, "no turn of this branch has a snapshot yet")
		return err
	}
	for _, t := range turns {
		changed := strconv.Itoa(t.Changed) + " file(s) changed"
		switch {
		case t.Changed < 0:
			changed = "changes unknown"
		case t.Changed == 0:
			changed = "no file changed"
		}
		if _, err := fmt.Fprintf(w, "turn %d  from entry %s  %s\n", t.Turn, t.Entry, changed); err != nil {
			return err
		}
	}
	return nil
}

// printDiff prints a diff as git does: a summary line per path, then the
// patches (made safe for the terminal: file content is untrusted).
func printDiff(out io.Writer, d protocol.DiffResult, stat bool) error {
	w := textout.SafeWriter{W: out}
	fmt.Fprintf(w, "%s → %s: %d file(s) changed\n", d.From, d.To, len(d.Files))
	for _, f := range d.Files {
		note := ""
		if f.Binary {
			note = " (binary)"
		}
		fmt.Fprintf(w, "  %-12s %s%s\n", f.Kind, f.Path, note)
	}
	if stat {
		return nil
	}
	for _, f := range d.Files {
		if f.Patch != "" {
			fmt.Fprintf(w, "\n%s", f.Patch)
			if !strings.HasSuffix(f.Patch, "\n") {
				fmt.Fprintln(w)
			}
		}
	}
	return nil
}

func sessionSnapshot(ctx context.Context, cmd *cli.Command) error {
	s, rt, err := openSessionArg(ctx, cmd)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	res, err := s.Snapshot(ctx, protocol.SnapshotParams{Note: cmd.String("note")})
	if err != nil {
		return cmdError(cmd, err)
	}
	ref := cmd.Args().First()
	if ref == "" || strings.ContainsAny(ref, " '\"") {
		ref = s.Info().ID
	}
	if err := printSnapshot(cmd.Root().Writer, ref, res); err != nil {
		return err
	}
	return s.Close(ctx)
}

// printSnapshot says what a snapshot taken on request recorded.
func printSnapshot(out io.Writer, ref string, res protocol.SnapshotResult) error {
	w := textout.SafeWriter{W: out}
	if res.Reused {
		fmt.Fprintf(w, "snapshot %s: nothing changed since the session's last snapshot (%d file(s)); recorded again as entry %s\n", short(res.Snapshot), res.Files, res.Entry)
	} else {
		fmt.Fprintf(w, "snapshot %s: %d file(s) changed since the session's last snapshot, %d file(s) in all\n", short(res.Snapshot), len(res.Changed), res.Files)
	}
	for _, c := range res.Changed {
		fmt.Fprintf(w, "  %-12s %s\n", c.Kind, c.Path)
	}
	for _, sk := range res.Skipped {
		fmt.Fprintf(w, "  left out     %s\n", sk)
	}
	_, err := fmt.Fprintf(w, "(recorded as effect %s; 'smith session restore %s --at %s' returns to these files)\n", res.Effect, ref, res.Entry)
	return err
}

func sessionUndo(ctx context.Context, cmd *cli.Command) error {
	return vcsOp(ctx, cmd, func(s *runtime.Session) (protocol.VCSResult, error) {
		return s.Undo(ctx, protocol.UndoParams{Force: cmd.Bool("force"), Rewind: cmd.Bool("rewind")})
	})
}

func sessionRedo(ctx context.Context, cmd *cli.Command) error {
	return vcsOp(ctx, cmd, func(s *runtime.Session) (protocol.VCSResult, error) {
		return s.Redo(ctx, protocol.RedoParams{Force: cmd.Bool("force")})
	})
}

func sessionRestore(ctx context.Context, cmd *cli.Command) error {
	return vcsOp(ctx, cmd, func(s *runtime.Session) (protocol.VCSResult, error) {
		return s.Restore(ctx, protocol.RestoreParams{At: cmd.String("at"), Force: cmd.Bool("force"), Rewind: cmd.Bool("rewind")})
	})
}

// vcsOp runs an undo, redo or restore on the session argument and prints
// what it changed.
func vcsOp(ctx context.Context, cmd *cli.Command, do func(*runtime.Session) (protocol.VCSResult, error)) error {
	s, rt, err := openSessionArg(ctx, cmd)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	res, err := do(s)
	if err != nil {
		return cmdError(cmd, err)
	}
	if err := printVCSResult(cmd.Root().Writer, res); err != nil {
		return err
	}
	return s.Close(ctx)
}

// printVCSResult says what a restore changed.
func printVCSResult(out io.Writer, res protocol.VCSResult) error {
	w := textout.SafeWriter{W: out}
	fmt.Fprintf(w, "%s: %d file(s) restored to snapshot %s\n", res.Op, len(res.Changed), short(res.To))
	for _, c := range res.Changed {
		fmt.Fprintf(w, "  %-12s %s\n", c.Kind, c.Path)
	}
	if res.Rewound != "" {
		fmt.Fprintf(w, "the conversation continues from entry %s\n", res.Rewound)
	}
	_, err := fmt.Fprintf(w, "(recorded as effect %s; 'smith session redo' or 'undo' moves again)\n", res.Effect)
	return err
}

// short abbreviates a snapshot id as git does.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// reconcileCommand decides effects whose outcome is unknown.
func reconcileCommand(ref string) *cli.Command {
	return &cli.Command{Name: "reconcile", ArgsUsage: ref,
		Usage: "decide whether effects recorded as unknown (Smith was killed while they ran) happened; Smith shows what it can compare and records your decision, never re-running anything",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "effect", Usage: "the unknown effect's `ID` (or a unique prefix); default: list them (and ask, on a terminal)"},
			&cli.StringFlag{Name: "decision", Usage: "what happened: `applied` or not_applied"},
			&cli.StringFlag{Name: "note", Usage: "why, recorded with the decision"},
		},
		Action: sessionReconcile}
}

func sessionReconcile(ctx context.Context, cmd *cli.Command) error {
	s, rt, err := openSessionArg(ctx, cmd)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	w := cmd.Root().Writer
	if id := cmd.String("effect"); id != "" {
		d := cmd.String("decision")
		if d == "" {
			return usageErrorf("session reconcile: --effect needs --decision applied or --decision not_applied")
		}
		res, err := s.Reconcile(ctx, protocol.ReconcileParams{Effect: id, Decision: d, Note: cmd.String("note")})
		if err != nil {
			return cmdError(cmd, err)
		}
		fmt.Fprintf(w, "effect %s recorded as %s (record %s)\n", res.Effect, res.Decision, res.Record)
		return s.Close(ctx)
	}
	us, err := s.UnknownEffects(ctx)
	if err != nil {
		return cmdError(cmd, err)
	}
	if len(us) == 0 {
		fmt.Fprintln(w, "no effect of this session is unknown: nothing to reconcile")
		return s.Close(ctx)
	}
	ask := false
	if f, ok := cmd.Root().Reader.(*os.File); ok && isTerminal(f) {
		ask = true
	}
	in := bufio.NewReader(cmd.Root().Reader)
	name, _ := sessionArg(cmd)
	for _, u := range us {
		sw := textout.SafeWriter{W: w}
		fmt.Fprintf(sw, "\neffect %s: %s %s\n", u.Effect, u.Kind, cutInput(u.Input))
		if u.Error != "" {
			fmt.Fprintf(sw, "  recorded: %s\n", u.Error)
		}
		fmt.Fprintf(sw, "  now: %s\n", u.Evidence)
		if u.Suggest != "" {
			fmt.Fprintf(sw, "  so it looks %s\n", strings.ReplaceAll(u.Suggest, "_", " "))
		}
		if !ask {
			fmt.Fprintf(w, "  decide: smith session reconcile %s --effect %s --decision applied|not_applied\n", name, u.Effect)
			continue
		}
		decision, err := askDecision(w, in, u.Suggest)
		if err != nil {
			return err
		}
		if decision == "" {
			fmt.Fprintln(w, "  skipped")
			continue
		}
		res, err := s.Reconcile(ctx, protocol.ReconcileParams{Effect: u.Effect, Decision: decision})
		if err != nil {
			return cmdError(cmd, err)
		}
		fmt.Fprintf(w, "  recorded as %s (record %s)\n", res.Decision, res.Record)
	}
	return s.Close(ctx)
}

// askDecision reads a/n/s (enter takes the suggestion, if any).
func askDecision(w io.Writer, in *bufio.Reader, suggest string) (string, error) {
	for {
		def := "s"
		switch suggest {
		case "applied":
			def = "a"
		case "not_applied":
			def = "n"
		}
		fmt.Fprintf(w, "  happened? [a]pplied, [n]ot applied, [s]kip (default %s): ", def)
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return "", usageErrorf("session reconcile: no answer on standard input (%v); decide with --effect ID --decision", err)
		}
		a := strings.TrimSpace(strings.ToLower(line))
		if a == "" {
			a = def
		}
		switch a {
		case "a", "applied":
			return "applied", nil
		case "n", "not applied", "not_applied":
			return "not_applied", nil
		case "s", "skip":
			return "", nil
		}
	}
}

// cutInput shows an effect's input on one line, at most 160 bytes.
func cutInput(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	return cut(s, 160)
}
