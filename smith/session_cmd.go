package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/urfave/cli/v3"
)

func sessionCommand() *cli.Command {
	ref := "ID|NAME|PATH"
	return &cli.Command{
		Name:  "session",
		Usage: "list, inspect, dump, fork and compact sessions; diff, undo, redo and restore the files their turns changed",
		Commands: append([]*cli.Command{
			{Name: "ls", Usage: "list the sessions, most recently active first, with their directory, model and first prompt",
				Flags: []cli.Flag{&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "table", Usage: "output `FORMAT`: table, or json"},
					&cli.BoolFlag{Name: "here", Usage: "only the sessions of the current directory"}},
				Action: sessionLs},
			{Name: "show", Usage: "print a session's details and the conversation of its selected branch", ArgsUsage: ref, Action: sessionShow},
			{Name: "tree", Usage: "print every entry of a session, every branch, with ids to fork or continue from", ArgsUsage: ref, Action: sessionTree},
			{Name: "label", Usage: "name an entry of a session (shown by smith session tree); an empty LABEL clears it", ArgsUsage: "ID|NAME ENTRY_ID LABEL", Action: sessionLabel},
			{Name: "dump", Usage: "write a session as JSONL, one line per frame (the interchange format)", ArgsUsage: ref, Action: sessionDump},
			{Name: "repair", Usage: "rewrite a damaged session with every entry that can be recovered (the damaged file is kept beside it)", ArgsUsage: ref, Action: sessionRepair},
			{Name: "fork", Usage: "copy a session's history up to an entry into a new session", ArgsUsage: ref,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "at", Usage: "fork at the entry with this `ENTRY_ID` or a unique prefix of 4+ characters (default: the selected entry); see 'smith session tree'"},
					&cli.StringFlag{Name: "name", Usage: "name the new session `NAME`"},
				},
				Action: sessionFork},
			compactCommand(ref),
		}, vcsCommands(ref)...),
	}
}

// sessionArg returns the one ID|NAME|PATH argument of a session command.
func sessionArg(cmd *cli.Command) (string, error) {
	args := cmd.Args().Slice()
	if len(args) != 1 {
		return "", usageErrorf("%s: expected one session (ID, NAME or PATH), got %d arguments; list sessions with 'smith session ls'", cmdName(cmd), len(args))
	}
	return args[0], nil
}

// isPath reports whether a session reference is a file path.
func isPath(ref string) bool {
	return strings.HasSuffix(ref, ".session") || strings.ContainsRune(ref, filepath.Separator)
}

// sessionRef resolves the one ID|NAME|PATH argument to a session file.
func sessionRef(ctx context.Context, cmd *cli.Command) (protocol.SessionInfo, error) {
	ref, err := sessionArg(cmd)
	if err != nil {
		return protocol.SessionInfo{}, err
	}
	if isPath(ref) {
		st, err := os.Stat(ref)
		if err != nil {
			return protocol.SessionInfo{}, usageErrorf("%s: session file %q: %v", cmdName(cmd), ref, err)
		}
		return protocol.SessionInfo{Name: filepath.Base(ref), Path: ref, Size: st.Size(), LastActivity: st.ModTime()}, nil
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{quiet: true})
	if err != nil {
		return protocol.SessionInfo{}, err
	}
	defer rt.Close(ctx)
	infos, err := rt.Sessions(ctx)
	if err != nil {
		return protocol.SessionInfo{}, cmdError(cmd, err)
	}
	return findInfo(cmd, infos, ref, rt.Paths().Sessions())
}

// findInfo picks ref (a name, an id or a unique id prefix of 4+
// characters) from infos.
func findInfo(cmd *cli.Command, infos []protocol.SessionInfo, ref, dir string) (protocol.SessionInfo, error) {
	for _, in := range infos {
		if in.Name == ref {
			return in, nil
		}
	}
	up := strings.ToUpper(ref)
	var hits []protocol.SessionInfo
	for _, in := range infos {
		if in.ID == up || (len(up) >= 4 && strings.HasPrefix(in.ID, up)) {
			hits = append(hits, in)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return protocol.SessionInfo{}, usageErrorf("%s: no session is named %q or has an id starting with it in %s; list them with 'smith session ls'", cmdName(cmd), ref, dir)
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return protocol.SessionInfo{}, usageErrorf("%s: %q matches %d sessions (%s); give more of the id", cmdName(cmd), ref, len(hits), strings.Join(ids, ", "))
}

func sessionLs(ctx context.Context, cmd *cli.Command) error {
	output, err := outputFormat(cmd, "table", "json")
	if err != nil {
		return err
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{quiet: true})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	infos, err := rt.Sessions(ctx)
	if err != nil {
		return cmdError(cmd, err)
	}
	if cmd.Bool("here") {
		infos = slices.DeleteFunc(infos, func(in protocol.SessionInfo) bool { return in.Cwd != rt.Cwd() })
	}
	w := cmd.Root().Writer
	if output == "json" {
		if infos == nil {
			infos = []protocol.SessionInfo{}
		}
		return writeJSON(w, infos)
	}
	if len(infos) == 0 {
		_, err := fmt.Fprintf(w, "no sessions yet in %s; start one with smith eval \"…\" (or smith demo)\n", rt.Paths().Sessions())
		return err
	}
	home, _ := os.UserHomeDir()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tLAST ACTIVE\tSIZE\tMODEL\tDIRECTORY\tFIRST PROMPT")
	for _, s := range infos {
		prompt := s.FirstPrompt
		if s.Damaged != "" {
			prompt = "(damaged: see smith session show " + s.ID + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, dash(s.Name), s.LastActivity.Local().Format("2006-01-02 15:04"),
			size(s.Size), dash(s.Model), dash(tilde(s.Cwd, home)), cut(prompt, 50))
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// tilde shortens a path under the home directory.
func tilde(p, home string) string {
	if home != "" && (p == home || strings.HasPrefix(p, home+string(filepath.Separator))) {
		return "~" + p[len(home):]
	}
	return p
}

// cut shortens s to n runes with "…".
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// size renders a byte count: "940 B", "12.3 KB", "4.1 MB".
func size(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

func sessionShow(ctx context.Context, cmd *cli.Command) error {
	info, err := sessionRef(ctx, cmd)
	if err != nil {
		return err
	}
	s, report, err := sessionfmt.Load(info.Path, nil)
	if err != nil {
		ref, _ := sessionArg(cmd)
		return unreadable(cmd, ref, err)
	}
	w := cmd.Root().Writer
	fmt.Fprintf(w, "session %s  %s\n", displayName(info), info.Path)
	if m, ok := session.SessionMetadata(s); ok {
		fmt.Fprintf(w, "directory: %s\n", m.Cwd)
	}
	if mc, ok := session.LastModelChange(s); ok {
		fmt.Fprintf(w, "model: %s\n", modelText(mc))
	}
	if id, err := sessionfmt.ParseID(info.ID); err == nil {
		fmt.Fprintf(w, "created: %s, last active: %s, size: %s\n", id.Time().Local().Format("2006-01-02 15:04"), info.LastActivity.Local().Format("2006-01-02 15:04"), size(info.Size))
	}
	counts := map[sessionfmt.Kind]int{}
	for i := range s.Len() {
		counts[s.Kind(i)]++
	}
	fmt.Fprintf(w, "entries: %d (messages %d, effect intents %d, effect completions %d), branches: %d\n",
		s.Len(), counts[sessionfmt.KindMessage], counts[sessionfmt.KindEffectIntent], counts[sessionfmt.KindEffectCompletion], len(s.Leaves(nil)))
	if u, n, err := session.BranchUsage(s, s.Selected()); err == nil && n > 0 {
		fmt.Fprintf(w, "cost: %s\n", textout.Usage(responses(n)+" on this branch (compaction and branch summaries included)", u))
	}
	if report.Damaged() {
		ref, _ := sessionArg(cmd)
		damageReport(w, report, ref)
	}
	if err := showBranch(w, s); err != nil {
		return fmt.Errorf("session show: %w", err)
	}
	if report.Damaged() {
		return damagedError(cmd, info.Path)
	}
	return nil
}

func displayName(info protocol.SessionInfo) string {
	if info.Name == "" {
		return info.ID
	}
	if info.ID == "" {
		return info.Name
	}
	return info.Name + " (" + info.ID + ")"
}

func sessionTree(ctx context.Context, cmd *cli.Command) error {
	s, rt, err := openSessionArg(ctx, cmd)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	nodes := s.Tree()
	w := cmd.Root().Writer
	// An entry is indented one step more than its parent when it is not
	// the parent's first child: each branch after the first is a level.
	depth := map[string]int{}
	firstChild := map[string]string{}
	for _, n := range nodes {
		d := 0
		if n.Parent != "" {
			d = depth[n.Parent]
			if first, ok := firstChild[n.Parent]; ok && first != n.ID {
				d++
			} else {
				firstChild[n.Parent] = n.ID
			}
		}
		depth[n.ID] = d
		mark := " "
		if n.Selected {
			mark = "*"
		}
		what := n.Kind
		if n.Role != "" {
			what = n.Role
		}
		line := fmt.Sprintf("%s %s%s %s", mark, strings.Repeat("  ", min(d, 20)), n.ID, what)
		if n.Summary != "" {
			line += ": " + cut(n.Summary, 80)
		}
		if n.Label != "" {
			line += " [" + n.Label + "]"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// openSessionArg opens the session of the one ID|NAME argument through the
// runtime; close the runtime when done.
func openSessionArg(ctx context.Context, cmd *cli.Command) (*runtime.Session, *runtime.Runtime, error) {
	ref, err := sessionArg(cmd)
	if err != nil {
		return nil, nil, err
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{quiet: true})
	if err != nil {
		return nil, nil, err
	}
	open := rt.OpenSession
	if isPath(ref) {
		open = rt.OpenSessionFile
	}
	s, err := open(ctx, ref)
	if err != nil {
		_ = rt.Close(ctx)
		return nil, nil, cmdError(cmd, err)
	}
	return s, rt, nil
}

// responses counts n responses in words.
func responses(n int) string {
	if n == 1 {
		return "1 response"
	}
	return strconv.Itoa(n) + " responses"
}

// showMessage prints m, its untrusted text made safe for a terminal.
func showMessage(out io.Writer, m model.Message) {
	w := textout.SafeWriter{W: out}
	switch m := m.(type) {
	case model.UserMessage:
		fmt.Fprintf(w, "\nuser: %s\n", model.TextOf(m.Content))
	case model.AssistantMessage:
		head := m.Model
		if b := textout.Brief(m.Usage); b != "" {
			head += " · " + b
		}
		fmt.Fprintf(w, "\nassistant (%s): %s\n", head, model.TextOf(m.Content))
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
			strings.ReplaceAll(strings.TrimRight(model.TextOf(m.Content), "\n"), "\n", "\n  "))
	}
}

func sessionDump(ctx context.Context, cmd *cli.Command) error {
	info, err := sessionRef(ctx, cmd)
	if err != nil {
		return err
	}
	ref, _ := sessionArg(cmd)
	report, err := sessionfmt.Dump(cmd.Root().Writer, info.Path, nil)
	if err != nil {
		return unreadable(cmd, ref, err)
	}
	if report != nil && report.Damaged() {
		damageReport(cmd.Root().ErrWriter, report, ref)
		return damagedError(cmd, info.Path)
	}
	return nil
}

func sessionFork(ctx context.Context, cmd *cli.Command) error {
	s, rt, err := openSessionArg(ctx, cmd)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	src := s.Info()
	f, err := s.Fork(ctx, protocol.ForkParams{At: cmd.String("at"), Name: cmd.String("name")})
	if err != nil {
		return cmdError(cmd, err)
	}
	at := cmd.String("at")
	if at == "" {
		at = "its selected entry"
	}
	_, err = fmt.Fprintf(cmd.Root().Writer, "forked %s at %s into %s\n", displayName(src), at, displayName(f.Info()))
	return err
}

func sessionLabel(ctx context.Context, cmd *cli.Command) error {
	args := cmd.Args().Slice()
	if len(args) != 3 {
		return usageErrorf("session label: expected a session, an entry id and a label, got %d arguments; see 'smith session tree SESSION' for entry ids", len(args))
	}
	rt, err := openRuntime(ctx, cmd, runtimeOptions{quiet: true})
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	open := rt.OpenSession
	if isPath(args[0]) {
		open = rt.OpenSessionFile
	}
	s, err := open(ctx, args[0])
	if err != nil {
		return cmdError(cmd, err)
	}
	if err := s.Label(ctx, args[1], args[2]); err != nil {
		return cmdError(cmd, err)
	}
	return s.Close(ctx)
}
