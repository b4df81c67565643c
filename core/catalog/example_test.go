package catalog_test

import (
	"fmt"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/model"
)

// Admit a request before dispatch, then price the response.
func Example() {
	snap, err := catalog.Bundled()
	if err != nil {
		panic(err)
	}
	m, err := snap.Lookup("google", "gemini-3-pro-preview")
	if err != nil {
		panic(err)
	}
	g, err := catalog.Admit(m, catalog.Needs{Thinking: catalog.LevelMedium}, catalog.Policy{})
	if err != nil {
		panic(err)
	}
	fmt.Println("thinking:", g.Thinking)
	fmt.Println(g.Notes[0])

	_, err = catalog.Admit(m, catalog.Needs{Thinking: catalog.LevelMedium}, catalog.Policy{Thinking: catalog.DegradeFail})
	fmt.Println(err != nil)

	u := model.Usage{Input: model.Known(10_000), Output: model.Known(2_000), CacheRead: model.Known(0), CacheWrite: model.Known(0)}
	cost, _ := catalog.Cost(m, u).Value()
	fmt.Printf("cost: $%.4f\n", float64(cost)/1e9)
	fmt.Println("unknown usage:", catalog.Cost(m, model.Usage{}))
	// Output:
	// thinking: low
	// google/gemini-3-pro-preview has no thinking level medium (it supports low, high); using low
	// true
	// cost: $0.0440
	// unknown usage: unknown
}
