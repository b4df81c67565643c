package main

import (
	"fmt"
	"io"

	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
	"github.com/smith-agent/smith/smith/internal/textout"
)

// showBranch prints the selected branch in order: its messages, and its
// model changes, file snapshots and restores, labels and compactions as
// one-line notes. Effect records are counted in the header, not listed.
func showBranch(out io.Writer, s *sessionfmt.Session) error {
	if s.Selected() < 0 {
		return nil
	}
	w := textout.SafeWriter{W: out}
	models := 0
	for _, i := range s.History(s.Selected(), nil) {
		e := s.Entry(i)
		switch e.Kind {
		case sessionfmt.KindMessage:
			m, err := session.EntryMessage(e.Content)
			if err != nil {
				return fmt.Errorf("entry %s: %w", e.ID, err)
			}
			showMessage(out, m)
		case sessionfmt.KindModelChange:
			var mc session.ModelChange
			if models++; models > 1 && sessionfmt.DecodeContent(e.Content, &mc) == nil {
				fmt.Fprintf(w, "\n[model changed to %s]\n", modelText(mc))
			}
		case sessionfmt.KindVCSOperation:
			var op session.VCSOperation
			if err := sessionfmt.DecodeContent(e.Content, &op); err != nil {
				return fmt.Errorf("entry %s: %w", e.ID, err)
			}
			if op.Op == session.VCSSnapshot && op.Phase == session.PhaseStart {
				continue // a turn's start is its prompt; its end says what changed
			}
			fmt.Fprintf(w, "\n[%s]\n", vcsText(op))
		case sessionfmt.KindLabel:
			fmt.Fprintf(w, "\n[label %q on entry %s]\n", e.Key, e.Pair)
		case sessionfmt.KindCompaction:
			c, err := session.CompactionEntry(s, i)
			if err != nil {
				return err
			}
			what := fmt.Sprintf("%d message(s) summarised (%s)", c.Summarized, c.Reason)
			if b := textout.Brief(c.Usage); b != "" {
				what += " · " + b
			}
			fmt.Fprintf(w, "\n[compaction: %s; the model sees this summary instead of the history before entry %s]\n  %s\n", what, e.Pair, cut(c.Summary, 400))
		}
	}
	return nil
}

func modelText(mc session.ModelChange) string {
	if mc.Thinking != "" {
		return mc.Model + " (thinking " + mc.Thinking + ")"
	}
	return mc.Model
}

// vcsText describes a vcs_operation entry on one line.
func vcsText(op session.VCSOperation) string {
	switch op.Op {
	case session.VCSSnapshot:
		return fmt.Sprintf("files after turn %d: snapshot %s, %d file(s) (smith session diff --turn %d shows its changes)", op.Turn, short(op.Snapshot), op.Files, op.Turn)
	}
	n := len(op.Changed) + op.ChangedMore
	s := fmt.Sprintf("%s: %d file(s) restored to snapshot %s", op.Op, n, short(op.Snapshot))
	if op.Forced {
		s += " (forced)"
	}
	if op.Rewind != "" {
		s += "; the conversation went back to entry " + op.Rewind
	}
	return s
}
