package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
	"github.com/smith-agent/smith/smith/internal/textout"
)

// showBranch prints the selected branch in order: its messages, and its
// model changes, file snapshots and restores, labels, compactions and
// branch summaries as one-line notes. Each turn (a user input through
// its final answer) ends with its total: its responses and the
// compactions its run made. Effect records are counted in the header;
// each applied write and edit is named with its effect id, which
// `smith session diff --effect` shows alone.
func showBranch(out io.Writer, s *sessionfmt.Session) error {
	if s.Selected() < 0 {
		return nil
	}
	w := textout.SafeWriter{W: out}
	models := 0
	var turn turnTotal
	edits := map[string]string{} // effect id → "write a.txt", of the file effects begun
	for _, i := range s.History(s.Selected(), nil) {
		e := s.Entry(i)
		switch e.Kind {
		case sessionfmt.KindEffectIntent, sessionfmt.KindEffectCompletion:
			r, err := session.EntryEffect(e)
			if err != nil {
				return fmt.Errorf("entry %s: %w", e.ID, err)
			}
			switch r := r.(type) {
			case effect.Intent:
				if verb, ok := strings.CutPrefix(r.Kind, "fs."); ok && (verb == "write" || verb == "edit") {
					var in struct{ Path string }
					_ = json.Unmarshal(r.Input, &in)
					edits[r.ID] = verb + " " + in.Path
				}
			case effect.Completion:
				if what, ok := edits[r.ID]; ok && r.Mutation == model.MutationApplied {
					fmt.Fprintf(w, "\n[%s: effect %s]\n", what, r.ID)
				}
			}
		case sessionfmt.KindMessage:
			m, err := session.EntryMessage(e.Content)
			if err != nil {
				return fmt.Errorf("entry %s: %w", e.ID, err)
			}
			switch m := m.(type) {
			case model.UserMessage:
				turn.end(w)
			case model.AssistantMessage:
				turn.add(m.Usage)
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
			fmt.Fprintf(w, "\n[%s]\n", vcsText(e.ID.String(), op))
		case sessionfmt.KindPluginStateCommit:
			var c session.PluginStateCommit
			if err := sessionfmt.DecodeContent(e.Content, &c); err != nil {
				return fmt.Errorf("entry %s: %w", e.ID, err)
			}
			what := fmt.Sprintf("set %q to %d byte(s), version %d", c.Key, len(c.Value), c.Version)
			if c.Removed {
				what = fmt.Sprintf("removed %q, version %d", c.Key, c.Version)
			}
			fmt.Fprintf(w, "\n[plugin %s state: %s]\n", e.Key, what)
		case sessionfmt.KindLabel:
			fmt.Fprintf(w, "\n[label %q on entry %s]\n", e.Key, e.Pair)
		case sessionfmt.KindCompaction:
			c, err := session.CompactionEntry(s, i)
			if err != nil {
				return err
			}
			if c.Reason == "manual" {
				// Asked for between turns: part of none.
				turn.end(w)
			} else {
				turn.add(c.Usage)
			}
			what := fmt.Sprintf("%d message(s) summarised (%s)", c.Summarized, c.Reason)
			if b := textout.Brief(c.Usage); b != "" {
				what += " · " + b
			}
			fmt.Fprintf(w, "\n[compaction: %s; the model sees this summary instead of the history before entry %s]\n  %s\n", what, e.Pair, indent(cut(c.Summary, 400)))
		case sessionfmt.KindBranchSummary:
			b, err := session.BranchSummaryEntry(s, i)
			if err != nil {
				return err
			}
			turn.end(w)
			what := fmt.Sprintf("%d message(s) of the branch left at entry %s summarised", b.Summarized, b.From)
			if u := textout.Brief(b.Usage); u != "" {
				what += " · " + u
			}
			fmt.Fprintf(w, "\n[branch summary: %s; the model sees this summary here]\n  %s\n", what, indent(cut(b.Summary, 400)))
		}
	}
	turn.end(w)
	return nil
}

// indent indents the lines of a summary after its first by two spaces.
func indent(s string) string { return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") }

// turnTotal sums the accounting of one turn of a branch: its responses
// and the summaries its run wrote.
type turnTotal struct {
	usage     model.Usage
	responses int
}

func (t *turnTotal) add(u model.Usage) {
	if t.responses == 0 {
		t.usage = u
	} else {
		t.usage = t.usage.Add(u)
	}
	t.responses++
}

// end prints the turn's total, if it had a response, and starts the next
// turn.
func (t *turnTotal) end(w io.Writer) {
	if t.responses > 0 {
		fmt.Fprintf(w, "\n[turn total: %s]\n", textout.Usage(responses(t.responses), t.usage))
	}
	*t = turnTotal{}
}

func modelText(mc session.ModelChange) string {
	if mc.Thinking != "" {
		return mc.Model + " (thinking " + mc.Thinking + ")"
	}
	return mc.Model
}

// vcsText describes the vcs_operation entry entry on one line.
func vcsText(entry string, op session.VCSOperation) string {
	switch {
	case op.Op == session.VCSSnapshot && op.Phase == session.PhaseManual:
		s := fmt.Sprintf("snapshot taken on request after turn %d: snapshot %s, %d file(s)", op.Turn, short(op.Snapshot), op.Files)
		if op.Note != "" {
			s += fmt.Sprintf(", %q", op.Note)
		}
		if op.By != "" {
			s += " (by " + op.By + ")"
		}
		return s + fmt.Sprintf(" (restore --at %s returns to it)", entry)
	case op.Op == session.VCSSnapshot:
		return fmt.Sprintf("files after turn %d: snapshot %s, %d file(s) (smith session diff --turn %d shows its changes)", op.Turn, short(op.Snapshot), op.Files, op.Turn)
	}
	n := len(op.Changed) + op.ChangedMore
	s := fmt.Sprintf("%s: %d file(s) restored to snapshot %s", op.Op, n, short(op.Snapshot))
	if op.Forced {
		s += " (forced)"
	}
	if op.By != "" {
		s += " (by " + op.By + ")"
	}
	if op.Rewind != "" {
		s += "; the conversation went back to entry " + op.Rewind
	}
	return s
}
