package agent

import (
	"fmt"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// spend adds a response's cost to what the run spent; an unknown cost
// makes it unknown.
func (r *Run) spend(cost model.Amount) {
	if !r.spentSet {
		r.spent, r.spentSet = model.Known(0), true
	}
	r.spent = r.spent.Add(cost)
}

// overBudget returns the end of a run that must not send another request
// under Config.MaxCost: it spent the budget, or the cost of what it spent
// is unknown.
func (r *Run) overBudget() (protocol.AgentEnd, bool) {
	max := r.a.cfg.MaxCost
	if max <= 0 || !r.spentSet {
		return protocol.AgentEnd{}, false
	}
	from := ""
	if src := r.a.cfg.MaxCostSource; src != "" {
		from = " (from " + src + ")"
	}
	n, known := r.spent.Value()
	switch {
	case !known:
		return protocol.AgentEnd{Reason: protocol.EndMaxCost, Error: fmt.Sprintf("agent: the run stopped before its next request: the cost of a response is unknown (no price is known for its model), so the budget of %s%s cannot be kept; give the model a price (model-info \"PROVIDER/MODEL\" { price input=… output=… } in smith.kdl) or run without max-cost", dollars(max), from)}, true
	case n >= max:
		return protocol.AgentEnd{Reason: protocol.EndMaxCost, Error: fmt.Sprintf("agent: the run stopped before its next request: it has spent %s of its budget of %s%s; continue the session to go on, with a higher max-cost if need be", dollars(n), dollars(max), from)}, true
	}
	return protocol.AgentEnd{}, false
}

// dollars renders billionths of a US dollar with four decimals.
func dollars(nano int64) string { return fmt.Sprintf("$%.4f", float64(nano)/1e9) }
