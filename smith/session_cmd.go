package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
	"github.com/smith-agent/smith/smith/internal/home"
	"github.com/urfave/cli/v3"
)

func sessionCommand() *cli.Command {
	return &cli.Command{
		Name:  "session",
		Usage: "list, inspect, dump and fork sessions",
		Commands: []*cli.Command{
			{Name: "ls", Usage: "list the sessions, oldest first", Action: sessionLs},
			{Name: "show", Usage: "print the conversation of a session's selected branch", ArgsUsage: "ID|NAME|PATH", Action: sessionShow},
			{Name: "dump", Usage: "write a session as JSONL, one line per frame (the interchange format)", ArgsUsage: "ID|NAME|PATH", Action: sessionDump},
			{Name: "fork", Usage: "copy a session's history up to an entry into a new session", ArgsUsage: "ID|NAME|PATH",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "at", Usage: "fork at the entry with this `ENTRY_ID` (default: the selected leaf); see 'smith session dump' for ids"},
					&cli.StringFlag{Name: "name", Usage: "name the new session `NAME`"},
				},
				Action: sessionFork},
		},
	}
}

func sessionDir(cmd *cli.Command) (*session.Dir, error) {
	dir, err := dataDir(cmd)
	if err != nil {
		return nil, err
	}
	return session.OpenDir(home.Sessions(dir))
}

// sessionRef resolves the one ID|NAME|PATH argument of a session command.
func sessionRef(cmd *cli.Command) (session.Info, error) {
	args := cmd.Args().Slice()
	if len(args) != 1 {
		return session.Info{}, usageErrorf("%s: expected one session (ID, NAME or PATH), got %d arguments; list sessions with 'smith session ls'", cmdName(cmd), len(args))
	}
	ref := args[0]
	if strings.HasSuffix(ref, ".session") || strings.ContainsRune(ref, filepath.Separator) {
		st, err := os.Stat(ref)
		if err != nil {
			return session.Info{}, usageErrorf("%s: session file %q: %v", cmdName(cmd), ref, err)
		}
		return session.Info{Name: filepath.Base(ref), Path: ref, ModTime: st.ModTime()}, nil
	}
	d, err := sessionDir(cmd)
	if err != nil {
		return session.Info{}, err
	}
	info, err := d.Find(ref)
	if err != nil {
		return session.Info{}, usageErrorf("%s: %w", cmdName(cmd), err)
	}
	return info, nil
}

func sessionLs(_ context.Context, cmd *cli.Command) error {
	d, err := sessionDir(cmd)
	if err != nil {
		return err
	}
	all, err := d.List()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(cmd.Root().Writer, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tMODIFIED")
	for _, s := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.ID, s.Name, s.ModTime.Local().Format(time.DateTime))
	}
	return tw.Flush()
}

func sessionShow(_ context.Context, cmd *cli.Command) error {
	info, err := sessionRef(cmd)
	if err != nil {
		return err
	}
	s, report, err := sessionfmt.Load(info.Path, nil)
	if err != nil {
		return fmt.Errorf("session show: %w", err)
	}
	w := cmd.Root().Writer
	fmt.Fprintf(w, "session %s  %s\n", displayName(info), info.Path)
	counts := map[sessionfmt.Kind]int{}
	for i := range s.Len() {
		counts[s.Kind(i)]++
	}
	fmt.Fprintf(w, "entries: %d (messages %d, effect intents %d, effect completions %d), branches: %d\n",
		s.Len(), counts[sessionfmt.KindMessage], counts[sessionfmt.KindEffectIntent], counts[sessionfmt.KindEffectCompletion], len(s.Leaves(nil)))
	if report.Damaged() {
		fmt.Fprintf(w, "damaged: %v (run 'sessionfmt repair %s')\n", report, info.Path)
	}
	msgs, err := session.Messages(s)
	if err != nil {
		return fmt.Errorf("session show: %w", err)
	}
	for _, m := range msgs {
		showMessage(w, m)
	}
	return nil
}

func displayName(info session.Info) string {
	if info.Name == "" {
		return info.ID
	}
	if info.ID == "" {
		return info.Name
	}
	return info.Name + " (" + info.ID + ")"
}

func showMessage(w io.Writer, m model.Message) {
	switch m := m.(type) {
	case model.UserMessage:
		fmt.Fprintf(w, "\nuser: %s\n", contentText(m.Content))
	case model.AssistantMessage:
		fmt.Fprintf(w, "\nassistant (%s): %s\n", m.Model, contentText(m.Content))
		for _, c := range m.ToolCalls() {
			fmt.Fprintf(w, "  → %s %s [%s]\n", c.Name, c.Arguments, c.ID)
		}
		if m.Error != nil {
			fmt.Fprintf(w, "  error (%s): %s\n", m.Error.Kind, m.Error.Message)
		}
	case model.ToolResultMessage:
		status := string(m.Mutation)
		if m.IsError {
			status = "error, " + status
		}
		fmt.Fprintf(w, "\ntool_result %s [%s] (%s):\n  %s\n", m.Name, m.CallID, status,
			strings.ReplaceAll(strings.TrimRight(contentText(m.Content), "\n"), "\n", "\n  "))
	}
}

func contentText(cs []model.Content) string {
	var b strings.Builder
	for _, c := range cs {
		if t, ok := c.(model.Text); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func sessionDump(_ context.Context, cmd *cli.Command) error {
	info, err := sessionRef(cmd)
	if err != nil {
		return err
	}
	report, err := sessionfmt.Dump(cmd.Root().Writer, info.Path, nil)
	if err != nil {
		return fmt.Errorf("session dump: %w", err)
	}
	if report != nil && report.Damaged() {
		fmt.Fprintf(cmd.Root().ErrWriter, "smith: session %s is damaged: %v; the dump holds the recovered frames\n", info.Path, report)
	}
	return nil
}

func sessionFork(_ context.Context, cmd *cli.Command) error {
	info, err := sessionRef(cmd)
	if err != nil {
		return err
	}
	var at sessionfmt.ID
	if ref := cmd.String("at"); ref != "" {
		if at, err = sessionfmt.ParseID(strings.ToUpper(ref)); err != nil {
			return usageErrorf("session fork: --at %q is not an entry id (26 base32 characters, see 'smith session dump'): %v", ref, err)
		}
	} else {
		s, _, err := sessionfmt.Load(info.Path, nil)
		if err != nil {
			return fmt.Errorf("session fork: %w", err)
		}
		if s.Len() == 0 {
			return usageErrorf("session fork: session %s has no entries to fork", displayName(info))
		}
		at = s.ID(s.Selected())
	}
	d, err := sessionDir(cmd)
	if err != nil {
		return err
	}
	f, nf, err := d.Fork(info, at, cmd.String("name"))
	if err != nil {
		return fmt.Errorf("session fork: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("session fork: %w", err)
	}
	fmt.Fprintf(cmd.Root().Writer, "forked %s at %s into %s\n", displayName(info), at, displayName(nf))
	return nil
}
