package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/calico32/kdl-go"
)

// KeyMaxCost is the budget of one run in US dollars: a run stops before a
// provider request once what it spent reaches it.
const KeyMaxCost = "max-cost"

// maxBudget bounds max-cost: one million dollars.
const maxBudget = 1e6

// parseMaxCost reads a budget in US dollars ("2.50", "$2.50", "0.1") as
// billionths of a dollar; the problem is "" when it is valid.
func parseMaxCost(s string) (int64, string) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "$")
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, `is not an amount of US dollars: write it as 2.50 or "$2.50"`
	}
	return budget(f)
}

func budget(f float64) (int64, string) {
	if f <= 0 || f > maxBudget {
		return 0, fmt.Sprintf("is not an amount above $0 and at most $%.0f", float64(maxBudget))
	}
	return int64(math.Round(f * 1e9)), ""
}

// maxCostNode reads max-cost 2.5 (or "2.50", "$2.50").
func (r *reader) maxCostNode(n *kdl.Node) {
	const ex = `max-cost 2.5`
	if !r.shape(n, KeyMaxCost, 1, 1, nil, false, ex) || !r.once(KeyMaxCost, n, KeyMaxCost) {
		return
	}
	v := n.Arg(0)
	var nano int64
	var why string
	if v.Kind() == kdl.String {
		nano, why = parseMaxCost(v.String())
	} else if f, ok := number(v); ok {
		nano, why = budget(f)
	} else {
		why = "is not an amount of US dollars"
	}
	if why != "" {
		r.fail(v.Location(), KeyMaxCost, show(v), why, ex)
		return
	}
	r.out.cfg.MaxCost = Setting[int64]{Value: nano, Source: r.at(v.Location())}
}

// maxCostEntry is max-cost as config show prints it.
func (c *Config) maxCostEntry() string {
	if !c.MaxCost.IsSet() {
		return "(none)"
	}
	return "$" + strconv.FormatFloat(float64(c.MaxCost.Value)/1e9, 'f', -1, 64)
}
