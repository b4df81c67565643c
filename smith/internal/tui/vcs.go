package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
)

// vcsArgs splits a VCS command's arguments into --force and the rest.
func vcsArgs(args string) (force bool, rest []string) {
	for _, f := range strings.Fields(args) {
		if f == "--force" || f == "-f" {
			force = true
			continue
		}
		rest = append(rest, f)
	}
	return force, rest
}

func (a *App) cmdUndo(args string) {
	force, _ := vcsArgs(args)
	a.vcsOp("/undo", func(s *runtime.Session) (protocol.VCSResult, error) {
		return s.Undo(a.ctx, protocol.UndoParams{Force: force})
	})
}

func (a *App) cmdRedo(args string) {
	force, _ := vcsArgs(args)
	a.vcsOp("/redo", func(s *runtime.Session) (protocol.VCSResult, error) {
		return s.Redo(a.ctx, protocol.RedoParams{Force: force})
	})
}

// cmdRewind restores the files and the conversation to before a turn.
func (a *App) cmdRewind(args string) {
	force, rest := vcsArgs(args)
	if len(rest) > 1 {
		a.tr.add(&item{kind: kindError, text: "/rewind takes one turn number: /rewind [N] [--force] (/diff lists nothing; smith session diff --list shows the turns)"})
		return
	}
	a.vcsOp("/rewind", func(s *runtime.Session) (protocol.VCSResult, error) {
		if len(rest) == 0 {
			return s.Undo(a.ctx, protocol.UndoParams{Force: force, Rewind: true})
		}
		n, err := strconv.Atoi(rest[0])
		if err != nil || n < 1 {
			return protocol.VCSResult{}, fmt.Errorf("/rewind: %q is not a turn number; turns count from 1", rest[0])
		}
		return s.Restore(a.ctx, protocol.RestoreParams{At: "turn:" + rest[0], Force: force, Rewind: true})
	})
}

// vcsOp runs an undo, redo or rewind off the UI goroutine and reports it.
func (a *App) vcsOp(what string, do func(*runtime.Session) (protocol.VCSResult, error)) {
	if a.sess == nil {
		a.setFlash(what + ": no session yet, so nothing to undo")
		return
	}
	if !a.idle(what) {
		return
	}
	s := a.sess
	a.do(func() func() {
		res, err := do(s)
		return func() {
			if err != nil {
				a.tr.add(&item{kind: kindError, text: what + ": " + trimRuntime(err.Error())})
				a.view.Follow()
				return
			}
			if res.Rewound != "" {
				a.attach(s)
			}
			a.info(vcsSummary(res))
		}
	})
}

// cmdSnapshot records the files as they are now, hand edits included,
// so /undo, /redo and restores can come back to them.
func (a *App) cmdSnapshot(args string) {
	if a.sess == nil {
		a.setFlash("/snapshot: no session yet; Smith snapshots the files as each turn starts")
		return
	}
	if !a.idle("/snapshot") {
		return
	}
	s, note := a.sess, strings.TrimSpace(args)
	a.background("/snapshot", func() (string, error) {
		res, err := s.Snapshot(a.ctx, protocol.SnapshotParams{Note: note})
		return snapshotSummary(res), err
	})
}

// background runs do off the UI goroutine, then shows the text it
// returns, or its error as what's.
func (a *App) background(what string, do func() (string, error)) {
	a.do(func() func() {
		text, err := do()
		return func() {
			if err != nil {
				a.tr.add(&item{kind: kindError, text: what + ": " + trimRuntime(err.Error())})
				a.view.Follow()
				return
			}
			a.info(text)
		}
	})
}

// snapshotSummary says what a snapshot recorded, one line per path (at
// most 20).
func snapshotSummary(res protocol.SnapshotResult) string {
	if res.Reused {
		return "snapshot: nothing changed since the last snapshot"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "snapshot: %d file(s) changed since the last snapshot", len(res.Changed))
	listChanges(&sb, res.Changed)
	sb.WriteString("\n/undo now goes back over them and /redo returns to them")
	return sb.String()
}

// vcsSummary says what a restore changed, one line per path (at most 20).
func vcsSummary(res protocol.VCSResult) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %d file(s) restored", res.Op, len(res.Changed))
	listChanges(&sb, res.Changed)
	if res.Rewound != "" {
		sb.WriteString("\nthe conversation is back to before that turn; the next prompt starts a branch there (/tree shows the old one)")
	}
	return sb.String()
}

// listChanges adds a line per changed path to sb, at most 20.
func listChanges(sb *strings.Builder, cs []protocol.FileChange) {
	for i, c := range cs {
		if i == 20 {
			fmt.Fprintf(sb, "\n  … and %d more", len(cs)-20)
			return
		}
		fmt.Fprintf(sb, "\n  %-9s %s", c.Kind, c.Path)
	}
}

// cmdDiff shows what a turn changed.
func (a *App) cmdDiff(args string) {
	if a.sess == nil {
		a.setFlash("/diff: no session yet")
		return
	}
	p := protocol.DiffParams{}
	if f := strings.TrimSpace(args); f != "" {
		switch n, err := strconv.Atoi(f); {
		case err == nil && n >= 1:
			p.Turn = n
		case err == nil || len(f) < 4:
			a.tr.add(&item{kind: kindError, text: fmt.Sprintf("/diff: %q is neither a turn number (from 1) nor an effect id (4+ characters)", f)})
			return
		default:
			p.Effect = f
		}
	}
	s := a.sess
	a.background("/diff", func() (string, error) {
		d, err := s.Diff(a.ctx, p)
		return diffText(d), err
	})
}

// diffText is a diff as the transcript shows it: the paths, then the
// patches (the transcript neutralizes control characters).
func diffText(d protocol.DiffResult) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s → %s: %d file(s) changed", d.From, d.To, len(d.Files))
	for _, f := range d.Files {
		bin := ""
		if f.Binary {
			bin = " (binary)"
		}
		fmt.Fprintf(&sb, "\n  %-9s %s%s", f.Kind, f.Path, bin)
	}
	for _, f := range d.Files {
		if f.Patch != "" {
			sb.WriteString("\n\n" + strings.TrimRight(f.Patch, "\n"))
		}
	}
	return sb.String()
}
