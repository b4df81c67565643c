package catalog

import (
	"testing"

	"github.com/smith-agent/smith/core/model"
)

func TestCost(t *testing.T) {
	priced := Model{Price: &Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}}
	noWrites := Model{Price: &Price{Input: 1.25, Output: 10, CacheRead: 0.125}}
	tiny := Model{Price: &Price{Input: 0.0001, Output: 0.0001}}
	k := model.Known
	u := model.Unknown()
	tests := []struct {
		name  string
		m     Model
		usage model.Usage
		want  model.Amount
	}{
		// 1000×3 + 500×15 + 2000×0.3 + 100×3.75 = 3000+7500+600+375 µ$ = 11,475,000 n$
		{name: "all known", m: priced, usage: model.Usage{Input: k(1000), Output: k(500), CacheRead: k(2000), CacheWrite: k(100)}, want: k(11_475_000)},
		{name: "million tokens", m: priced, usage: model.Usage{Input: k(1_000_000), Output: k(0), CacheRead: k(0), CacheWrite: k(0)}, want: k(3_000_000_000)},
		{name: "unknown output", m: priced, usage: model.Usage{Input: k(1), Output: u, CacheRead: k(0), CacheWrite: k(0)}, want: u},
		{name: "entirely unknown usage", m: priced, usage: model.Usage{}, want: u},
		{name: "unknown cache write priced at zero", m: noWrites, usage: model.Usage{Input: k(8), Output: k(1), CacheRead: k(80), CacheWrite: u}, want: k(30_000)},
		{name: "fraction of a nano-dollar rounds down", m: tiny, usage: model.Usage{Input: k(4), Output: k(0)}, want: k(0)},
		{name: "fraction of a nano-dollar rounds up", m: tiny, usage: model.Usage{Input: k(6), Output: k(0)}, want: k(1)},
		{name: "no price", m: Model{}, usage: model.Usage{Input: k(1), Output: k(1), CacheRead: k(0), CacheWrite: k(0)}, want: u},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Cost(tt.m, tt.usage); got != tt.want {
				t.Errorf("Cost = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTally(t *testing.T) {
	var s Tally
	if got := s.Total(); got != model.Known(0) {
		t.Errorf("empty session costs %v, want 0", got)
	}
	s.Add(model.Known(10))
	s.Add(model.Known(5))
	if got := s.Total(); got != model.Known(15) {
		t.Errorf("total %v", got)
	}
	s.Add(model.Unknown())
	if s.Total().IsKnown() {
		t.Error("a session with an unpriced message has a known total")
	}
	if n, unpriced := s.Partial(); n != 15 || unpriced != 1 {
		t.Errorf("partial %d, %d", n, unpriced)
	}
}
