package catalog

import (
	"math"

	"github.com/smith-agent/smith/core/model"
)

// Cost returns the price of one response in billionths of a US dollar, from
// m's prices and the reported usage. It is unknown when m has no price, or
// when a usage field the model charges for is unknown: unknown usage never
// becomes a zero cost. A field priced at zero (such as cache writes at a
// provider that does not charge them) contributes zero even when unknown.
// Cache writes are charged at the five-minute write price. Reasoning tokens
// are part of Output and are not charged twice.
func Cost(m Model, u model.Usage) model.Amount {
	if m.Price == nil {
		return model.Unknown()
	}
	parts := []struct {
		n     model.Amount
		price float64
	}{{u.Input, m.Price.Input}, {u.Output, m.Price.Output}, {u.CacheRead, m.Price.CacheRead}, {u.CacheWrite, m.Price.CacheWrite}}
	var micro int64 // tokens × micro-dollars per million tokens
	for _, p := range parts {
		perM := int64(math.Round(p.price * 1e6))
		if perM == 0 {
			continue
		}
		n, ok := p.n.Value()
		if !ok {
			return model.Unknown()
		}
		micro += n * perM
	}
	// tokens × µ$/Mtok = 1e-12 $ ; nano-dollars = that / 1000, rounded.
	return model.Known((micro + 500) / 1000)
}

// Tally sums the costs of a session's messages. The zero Tally is empty.
// It is not safe for concurrent use.
type Tally struct {
	known    int64
	messages int
	unknown  int
}

// Add records the cost of one message.
func (t *Tally) Add(c model.Amount) {
	t.messages++
	if n, ok := c.Value(); ok {
		t.known += n
	} else {
		t.unknown++
	}
}

// Total returns the session's cost in nano-dollars: unknown when any
// message's cost is unknown (a session without messages costs a known 0).
func (t Tally) Total() model.Amount {
	if t.unknown > 0 {
		return model.Unknown()
	}
	return model.Known(t.known)
}

// Partial returns the sum of the known message costs and how many messages
// had an unknown cost, so a frontend can show "at least $x (n unpriced)".
func (t Tally) Partial() (nanoUSD int64, unpriced int) { return t.known, t.unknown }
