package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// Compaction is a compaction entry: the model's summary of the older part
// of a branch, which replaces that part in what the model is shown (see
// [BranchContext]). Nothing is deleted: the summarised entries stay in the
// file, and the full transcript ([Messages]) still reads them.
type Compaction struct {
	// Summary is the summary, previous summaries folded in. Required.
	Summary string
	// FirstKept is the first entry the context keeps verbatim after the
	// summary (the entry's Pair). The zero ID keeps none: the context is
	// the summary and what follows the compaction entry, and the entry is
	// its own Pair.
	FirstKept sessionfmt.ID
	// SummarizedFirst and SummarizedLast are the first and the last
	// message entry this compaction summarised, and Summarized their
	// count; entries an earlier compaction summarised are in Previous's
	// lineage, not counted again.
	SummarizedFirst, SummarizedLast sessionfmt.ID
	Summarized                      int
	// Previous is the compaction whose summary this one folds in; zero for
	// the first compaction of the branch.
	Previous sessionfmt.ID
	// TokensBefore and TokensAfter are the context's estimated size before
	// and after, in tokens.
	TokensBefore, TokensAfter int
	// Reason is what started it: "threshold", "overflow" or "manual".
	// Required.
	Reason string
	// Instructions are what the user added to the summary prompt.
	Instructions string
	// Model is the model that wrote the summary, as chosen (an alias, a
	// group or PROVIDER/MODEL).
	Model string
	// Usage is the summary request's usage; unknown fields stay unknown.
	Usage model.Usage
	// Prior is the accounting of every response the context no longer
	// holds: the summarised assistant messages and branch summaries, the
	// earlier summaries and this one; PriorResponses counts them. With the kept and later
	// messages it makes the branch's accounting without decoding the
	// summarised entries.
	Prior          model.Usage
	PriorResponses int
}

// compactionReasons are the values of Compaction.Reason.
var compactionReasons = []string{"threshold", "overflow", "manual"}

// usageRecord is a model.Usage as entry content: an unknown amount is
// null, never 0.
type usageRecord struct {
	Input      *int64 `cbor:"input"`
	Output     *int64 `cbor:"output"`
	CacheRead  *int64 `cbor:"cache_read"`
	CacheWrite *int64 `cbor:"cache_write"`
	Reasoning  *int64 `cbor:"reasoning"`
	Cost       *int64 `cbor:"cost_nano_usd"`
}

type compactionContent struct {
	Summary         string      `cbor:"summary"`
	FirstKept       string      `cbor:"first_kept"`
	SummarizedFirst string      `cbor:"summarized_first"`
	SummarizedLast  string      `cbor:"summarized_last"`
	Summarized      int         `cbor:"summarized"`
	Previous        string      `cbor:"previous,omitempty"`
	TokensBefore    int         `cbor:"tokens_before"`
	TokensAfter     int         `cbor:"tokens_after"`
	Reason          string      `cbor:"reason"`
	Instructions    string      `cbor:"instructions,omitempty"`
	Model           string      `cbor:"model,omitempty"`
	Usage           usageRecord `cbor:"usage"`
	Prior           usageRecord `cbor:"prior"`
	PriorResponses  int         `cbor:"prior_responses"`
}

// RecordCompaction appends a compaction entry under the selected leaf and
// returns its id. The entry is buffered, as messages are: losing it to a
// machine crash loses the compaction, never history. A compaction without
// a summary or with an unknown reason is refused.
func (s *Store) RecordCompaction(c Compaction) (sessionfmt.ID, error) {
	if strings.TrimSpace(c.Summary) == "" {
		return sessionfmt.ID{}, errors.New("session: a compaction needs its summary; an empty summary is never recorded")
	}
	if !slices.Contains(compactionReasons, c.Reason) {
		return sessionfmt.ID{}, fmt.Errorf("session: compaction reason %q is not one of %s", c.Reason, strings.Join(compactionReasons, ", "))
	}
	id := sessionfmt.NewID()
	pair := c.FirstKept
	if pair.IsZero() {
		pair = id
	}
	content, err := sessionfmt.EncodeContent(compactionContent{Summary: c.Summary, FirstKept: pair.String(),
		SummarizedFirst: idText(c.SummarizedFirst), SummarizedLast: idText(c.SummarizedLast), Summarized: c.Summarized,
		Previous: idText(c.Previous), TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter, Reason: c.Reason,
		Instructions: c.Instructions, Model: c.Model, Usage: usageOf(c.Usage), Prior: usageOf(c.Prior), PriorResponses: c.PriorResponses})
	if err != nil {
		return sessionfmt.ID{}, fmt.Errorf("session: encode compaction: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := sessionfmt.Entry{ID: id, Kind: sessionfmt.KindCompaction, Pair: pair, Content: content}
	if err := s.append(e, sessionfmt.Buffered); err != nil {
		return sessionfmt.ID{}, err
	}
	return id, nil
}

// CompactionEntry decodes the compaction entry i of sess. An entry that is
// not a compaction, or whose content does not decode, is an error naming
// it.
func CompactionEntry(sess *sessionfmt.Session, i int) (Compaction, error) {
	e := sess.Entry(i)
	if e.Kind != sessionfmt.KindCompaction {
		return Compaction{}, fmt.Errorf("session: entry %s is a %s entry, not a compaction", e.ID, e.Kind)
	}
	var v compactionContent
	if err := sessionfmt.DecodeContent(e.Content, &v); err != nil {
		return Compaction{}, fmt.Errorf("session: compaction %s: %w", e.ID, err)
	}
	c := Compaction{Summary: v.Summary, Summarized: v.Summarized, TokensBefore: v.TokensBefore, TokensAfter: v.TokensAfter,
		Reason: v.Reason, Instructions: v.Instructions, Model: v.Model, Usage: v.Usage.usage(), Prior: v.Prior.usage(),
		PriorResponses: v.PriorResponses}
	if e.Pair != e.ID {
		c.FirstKept = e.Pair
	}
	for _, f := range []struct {
		text string
		dst  *sessionfmt.ID
	}{{v.SummarizedFirst, &c.SummarizedFirst}, {v.SummarizedLast, &c.SummarizedLast}, {v.Previous, &c.Previous}} {
		if f.text == "" {
			continue
		}
		id, err := sessionfmt.ParseID(f.text)
		if err != nil {
			return Compaction{}, fmt.Errorf("session: compaction %s: %w", e.ID, err)
		}
		*f.dst = id
	}
	return c, nil
}

func idText(id sessionfmt.ID) string {
	if id.IsZero() {
		return ""
	}
	return id.String()
}

func usageOf(u model.Usage) usageRecord {
	ptr := func(a model.Amount) *int64 {
		if n, ok := a.Value(); ok {
			return &n
		}
		return nil
	}
	return usageRecord{Input: ptr(u.Input), Output: ptr(u.Output), CacheRead: ptr(u.CacheRead), CacheWrite: ptr(u.CacheWrite),
		Reasoning: ptr(u.Reasoning), Cost: ptr(u.CostNanoUSD)}
}

func (r usageRecord) usage() model.Usage {
	amt := func(p *int64) model.Amount {
		if p == nil {
			return model.Unknown()
		}
		return model.Known(*p)
	}
	return model.Usage{Input: amt(r.Input), Output: amt(r.Output), CacheRead: amt(r.CacheRead), CacheWrite: amt(r.CacheWrite),
		Reasoning: amt(r.Reasoning), CostNanoUSD: amt(r.Cost)}
}

// BranchUsage sums the usage of the branch ending at entry leaf: every
// assistant message on it (compacted ones included) and the request of
// every compaction summary and branch summary on it, and counts those
// responses. A field any of them left
// unknown is unknown. It decodes every message of the branch; an entry
// that does not decode is an error naming it.
func BranchUsage(sess *sessionfmt.Session, leaf int) (model.Usage, int, error) {
	z := model.Known(0)
	total := model.Usage{Input: z, Output: z, CacheRead: z, CacheWrite: z, Reasoning: z, CostNanoUSD: z}
	n := 0
	if leaf < 0 {
		return total, 0, nil
	}
	for _, i := range sess.History(leaf, nil) {
		switch sess.Kind(i) {
		case sessionfmt.KindMessage:
			e := sess.Entry(i)
			m, err := decodeMessage(e.Content)
			if err != nil {
				return model.Usage{}, 0, fmt.Errorf("session: entry %s: %w", e.ID, err)
			}
			if am, ok := m.(model.AssistantMessage); ok {
				total, n = total.Add(am.Usage), n+1
			}
		case sessionfmt.KindCompaction:
			c, err := CompactionEntry(sess, i)
			if err != nil {
				return model.Usage{}, 0, err
			}
			total, n = total.Add(c.Usage), n+1
		case sessionfmt.KindBranchSummary:
			b, err := BranchSummaryEntry(sess, i)
			if err != nil {
				return model.Usage{}, 0, err
			}
			total, n = total.Add(b.Usage), n+1
		}
	}
	return total, n, nil
}
