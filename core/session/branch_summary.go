package session

import (
	"errors"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// BranchSummaryHeading starts the text of the user message that carries a
// branch summary in the model's context.
const BranchSummaryHeading = "[Summary of another branch of this conversation, which the user left to continue from here]\n"

// BranchSummary is a branch_summary entry: the model's summary of a branch
// the session moved away from, recorded under the entry it moved to, so
// the conversation that goes on from there knows what was tried on the
// other branch. In the model's context it is a user message (its text
// starts with [BranchSummaryHeading]) at its place on the branch; a later
// compaction summarises it like any message. Nothing of the branch left
// behind is deleted.
type BranchSummary struct {
	// Summary is the summary. Required.
	Summary string
	// From is the leaf of the branch left behind, the entry the session
	// was at before it moved (the entry's Pair). Required.
	From sessionfmt.ID
	// Fork is the last entry the branch left behind shares with the one
	// the session moved to; zero when they share none. The branch left
	// behind is the path after Fork up to From.
	Fork sessionfmt.ID
	// SummarizedFirst and SummarizedLast are the first and the last
	// message entry of the branch left behind, and Summarized their count.
	SummarizedFirst, SummarizedLast sessionfmt.ID
	Summarized                      int
	// Instructions are what the user added to the summary prompt.
	Instructions string
	// Model is the model that wrote the summary, as chosen.
	Model string
	// Usage is the summary request's usage; unknown fields stay unknown.
	// It is accounted with the branch's responses ([BranchUsage]).
	Usage model.Usage
}

type branchSummaryContent struct {
	Summary         string      `cbor:"summary"`
	Fork            string      `cbor:"fork,omitempty"`
	SummarizedFirst string      `cbor:"summarized_first"`
	SummarizedLast  string      `cbor:"summarized_last"`
	Summarized      int         `cbor:"summarized"`
	Instructions    string      `cbor:"instructions,omitempty"`
	Model           string      `cbor:"model,omitempty"`
	Usage           usageRecord `cbor:"usage"`
}

// RecordBranchSummary appends a branch summary entry under the entry at
// and returns its id; it becomes the selected leaf, so the one append
// both moves the session and records the summary (durably, as a
// selection is). A summary without text or without the branch it
// summarises is refused, and so is an at that is not in the session.
func (s *Store) RecordBranchSummary(at sessionfmt.ID, b BranchSummary) (sessionfmt.ID, error) {
	if strings.TrimSpace(b.Summary) == "" {
		return sessionfmt.ID{}, errors.New("session: a branch summary needs its summary; an empty summary is never recorded")
	}
	if b.From.IsZero() {
		return sessionfmt.ID{}, errors.New("session: a branch summary needs the leaf of the branch it summarises (From)")
	}
	content, err := sessionfmt.EncodeContent(branchSummaryContent{Summary: b.Summary, Fork: idText(b.Fork),
		SummarizedFirst: idText(b.SummarizedFirst), SummarizedLast: idText(b.SummarizedLast), Summarized: b.Summarized,
		Instructions: b.Instructions, Model: b.Model, Usage: usageOf(b.Usage)})
	if err != nil {
		return sessionfmt.ID{}, fmt.Errorf("session: encode branch summary: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.f.Session()
	i := sess.Index(at)
	if i < 0 {
		return sessionfmt.ID{}, fmt.Errorf("session: entry %s is not in %s; a branch summary goes under an entry of the session", at, s.f.Path())
	}
	// append writes under the selected entry; the entry appended is
	// selected after it.
	prev := sess.Selected()
	sess.Select(i)
	id := sessionfmt.NewID()
	if err := s.append(sessionfmt.Entry{ID: id, Kind: sessionfmt.KindBranchSummary, Pair: b.From, Content: content}, sessionfmt.Durable); err != nil {
		if prev >= 0 {
			sess.Select(prev)
		}
		return sessionfmt.ID{}, err
	}
	return id, nil
}

// BranchSummaryEntry decodes the branch summary entry i of sess. An entry
// that is not a branch summary, or whose content does not decode, is an
// error naming it.
func BranchSummaryEntry(sess *sessionfmt.Session, i int) (BranchSummary, error) {
	e := sess.Entry(i)
	if e.Kind != sessionfmt.KindBranchSummary {
		return BranchSummary{}, fmt.Errorf("session: entry %s is a %s entry, not a branch summary", e.ID, e.Kind)
	}
	var v branchSummaryContent
	if err := sessionfmt.DecodeContent(e.Content, &v); err != nil {
		return BranchSummary{}, fmt.Errorf("session: branch summary %s: %w", e.ID, err)
	}
	b := BranchSummary{Summary: v.Summary, From: e.Pair, Summarized: v.Summarized, Instructions: v.Instructions, Model: v.Model,
		Usage: v.Usage.usage()}
	for _, f := range []struct {
		text string
		dst  *sessionfmt.ID
	}{{v.Fork, &b.Fork}, {v.SummarizedFirst, &b.SummarizedFirst}, {v.SummarizedLast, &b.SummarizedLast}} {
		if f.text == "" {
			continue
		}
		id, err := sessionfmt.ParseID(f.text)
		if err != nil {
			return BranchSummary{}, fmt.Errorf("session: branch summary %s: %w", e.ID, err)
		}
		*f.dst = id
	}
	return b, nil
}

// BranchSummaryMessage is the user message that carries summary in the
// model's context.
func BranchSummaryMessage(summary string) model.UserMessage {
	return model.UserMessage{Content: []model.Content{model.Text{Text: BranchSummaryHeading + summary}}}
}

// LeftBehind returns what moving the selection from entry from to entry
// to leaves behind: the last entry the two paths share (-1 when none) and
// the entries after it on from's path that the model was shown (messages
// and branch summaries), oldest first, with their messages. Nothing is
// left behind when to continues from's path (from is on it). An entry
// that does not decode is an error naming it.
func LeftBehind(sess *sessionfmt.Session, from, to int) (fork int, entries []int, msgs []model.Message, err error) {
	if from < 0 {
		return -1, nil, nil, nil
	}
	old, next := sess.History(from, nil), sess.History(to, nil)
	shared := 0
	for shared < len(old) && shared < len(next) && old[shared] == next[shared] {
		shared++
	}
	fork = -1
	if shared > 0 {
		fork = old[shared-1]
	}
	for _, i := range old[shared:] {
		m, ok, err := contextMessage(sess, i)
		if err != nil {
			return -1, nil, nil, err
		}
		if ok {
			entries, msgs = append(entries, i), append(msgs, m)
		}
	}
	return fork, entries, msgs, nil
}

// AwaitsResults reports whether entry i is a model reply that calls
// tools: the results of its calls belong right after it, so nothing else
// (a branch summary) may be placed under it. An entry that does not
// decode is an error naming it.
func AwaitsResults(sess *sessionfmt.Session, i int) (bool, error) {
	m, ok, err := contextMessage(sess, i)
	if err != nil || !ok {
		return false, err
	}
	am, ok := m.(model.AssistantMessage)
	return ok && len(am.ToolCalls()) > 0, nil
}

// contextMessage decodes entry i as the message the model is shown of it:
// a message entry's message, a branch summary's [BranchSummaryMessage];
// ok is false for any other kind.
func contextMessage(sess *sessionfmt.Session, i int) (model.Message, bool, error) {
	switch sess.Kind(i) {
	case sessionfmt.KindMessage:
		e := sess.Entry(i)
		m, err := decodeMessage(e.Content)
		if err != nil {
			return nil, false, fmt.Errorf("session: entry %s: %w", e.ID, err)
		}
		return m, true, nil
	case sessionfmt.KindBranchSummary:
		b, err := BranchSummaryEntry(sess, i)
		if err != nil {
			return nil, false, err
		}
		return BranchSummaryMessage(b.Summary), true, nil
	}
	return nil, false, nil
}

// inContext reports whether entries of kind k are messages of the model's
// context: messages and branch summaries.
func inContext(k sessionfmt.Kind) bool {
	return k == sessionfmt.KindMessage || k == sessionfmt.KindBranchSummary
}
