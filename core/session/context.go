package session

import (
	"fmt"
	"slices"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// SummaryHeading starts the text of the user message that carries a
// compaction's summary in the model's context.
const SummaryHeading = "[Summary of the conversation before this point]\n"

// Context is what the model is shown of a branch: the conversation a
// request continues from.
type Context struct {
	// Messages are the branch's messages, oldest first; after a
	// compaction, a user message carrying its summary (its text starts
	// with [SummaryHeading]) and then the messages from the compaction's
	// first kept entry on. A branch summary on the branch is a user
	// message at its place ([BranchSummaryMessage]).
	Messages []model.Message
	// Entries holds the session index of each message's entry; -1 for
	// the summary.
	Entries []int
	// BranchSummaries maps the position in Messages of each branch
	// summary ([BranchSummary]) to the usage of the request that wrote
	// it, which is accounted like a response's; nil when there is none.
	BranchSummaries map[int]model.Usage
	// Compaction is the compaction in force, nil when there is none; At
	// is its entry's index (-1 when there is none).
	Compaction *Compaction
	At         int
	// Stale counts the leading Messages that were in the context when the
	// compaction was made (the summary and the kept messages): the usage
	// their responses report measured the longer context before it. 0
	// without a compaction.
	Stale int
}

// SummaryMessage is the user message that carries summary in the model's
// context.
func SummaryMessage(summary string) model.UserMessage {
	return model.UserMessage{Content: []model.Content{model.Text{Text: SummaryHeading + summary}}}
}

// CompactionInForce finds the compaction in force on the branch ending at
// entry leaf: the latest on the path from the root whose first kept entry
// is on the path before it (a compaction whose kept entry was lost to a
// damaged file is not in force, so the whole branch is shown and nothing
// is left out unseen). It returns the compaction's index, the path
// position of its first kept entry in path (sess.History(leaf)), and the
// number of leading context messages that predate it (the summary and the
// kept messages); ok is false when none is in force. It reads records only.
func CompactionInForce(sess *sessionfmt.Session, path []int, leaf int) (at, from, stale int, ok bool) {
	if leaf < 0 {
		return -1, 0, 0, false
	}
	at, kept, found := sess.CompactionBoundary(leaf)
	if !found || kept < 0 || kept > at {
		return -1, 0, 0, false
	}
	pos, onPath := slices.BinarySearch(path, kept)
	if !onPath {
		return -1, 0, 0, false
	}
	stale = 1
	for _, i := range path[pos:] {
		if i >= at {
			break
		}
		if inContext(sess.Kind(i)) {
			stale++
		}
	}
	return at, pos, stale, true
}

// BranchContext returns the context of the branch ending at entry leaf
// (none for leaf < 0): the messages on the path from the root to leaf, or,
// with a compaction in force ([CompactionInForce]), its summary followed
// by the messages from its first kept entry on. It finds the compaction
// from the entry records alone ([sessionfmt.Session.CompactionBoundary])
// and decodes only the compaction and the messages it keeps, so its cost
// follows the kept context, not the history. An entry that does not
// decode is an error naming it.
func BranchContext(sess *sessionfmt.Session, leaf int) (Context, error) {
	ctx := Context{At: -1}
	if leaf < 0 {
		return ctx, nil
	}
	path := sess.History(leaf, nil)
	at, from, stale, ok := CompactionInForce(sess, path, leaf)
	n := 0
	if ok {
		c, err := CompactionEntry(sess, at)
		if err != nil {
			return Context{At: -1}, err
		}
		ctx.Compaction, ctx.At, ctx.Stale = &c, at, stale
		n++
	}
	for _, i := range path[from:] {
		if inContext(sess.Kind(i)) {
			n++
		}
	}
	ctx.Messages, ctx.Entries = make([]model.Message, 0, n), make([]int, 0, n)
	if ok {
		ctx.Messages, ctx.Entries = append(ctx.Messages, SummaryMessage(ctx.Compaction.Summary)), append(ctx.Entries, -1)
	}
	for _, i := range path[from:] {
		switch sess.Kind(i) {
		case sessionfmt.KindMessage:
			e := sess.Entry(i)
			m, err := decodeMessage(e.Content)
			if err != nil {
				return Context{At: -1}, fmt.Errorf("session: entry %s: %w", e.ID, err)
			}
			ctx.Messages, ctx.Entries = append(ctx.Messages, m), append(ctx.Entries, i)
		case sessionfmt.KindBranchSummary:
			b, err := BranchSummaryEntry(sess, i)
			if err != nil {
				return Context{At: -1}, err
			}
			if ctx.BranchSummaries == nil {
				ctx.BranchSummaries = map[int]model.Usage{}
			}
			ctx.BranchSummaries[len(ctx.Messages)] = b.Usage
			ctx.Messages, ctx.Entries = append(ctx.Messages, BranchSummaryMessage(b.Summary)), append(ctx.Entries, i)
		}
	}
	return ctx, nil
}

// PriorUsage returns the accounting of the branch ending at entry leaf
// that its context ([BranchContext]) carries in no assistant message, and
// the number of responses in it: what the compaction in force took out
// of the context (its Prior) and the requests that wrote the branch
// summaries the context holds. With the usage of the context's assistant
// messages it makes the branch's accounting. It decodes the compaction in
// force and those branch summaries only; an entry that does not decode is
// an error naming it.
func PriorUsage(sess *sessionfmt.Session, leaf int) (model.Usage, int, error) {
	z := model.Known(0)
	u, n := model.Usage{Input: z, Output: z, CacheRead: z, CacheWrite: z, Reasoning: z, CostNanoUSD: z}, 0
	if leaf < 0 {
		return u, 0, nil
	}
	path := sess.History(leaf, nil)
	at, from, _, ok := CompactionInForce(sess, path, leaf)
	if ok {
		c, err := CompactionEntry(sess, at)
		if err != nil {
			return model.Usage{}, 0, err
		}
		u, n = c.Prior, c.PriorResponses
	}
	for _, i := range path[from:] {
		if sess.Kind(i) != sessionfmt.KindBranchSummary {
			continue
		}
		b, err := BranchSummaryEntry(sess, i)
		if err != nil {
			return model.Usage{}, 0, err
		}
		u, n = u.Add(b.Usage), n+1
	}
	return u, n, nil
}
