package route_test

import (
	"context"
	"fmt"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/route"
)

// Resolve a group across account buckets, then fail over on a rate limit.
func Example() {
	cfg := route.Config{
		Aliases:  map[string]string{"fast": "team"},
		Groups:   map[string][]string{"team": {"acme/big", "other/small"}},
		Accounts: map[string][]string{"acme": {"work", "personal"}},
	}
	targets, err := route.Resolve(cfg, nil, "fast")
	if err != nil {
		panic(err)
	}
	fmt.Println(targets)

	attempt := route.AttemptFunc(func(_ context.Context, t route.Target) error {
		if t.Provider == "acme" {
			return model.NewError(model.ErrRateLimit, "slow down")
		}
		return nil
	})
	noWait := func(context.Context, time.Duration) error { return nil }
	rep, err := route.Run(context.Background(), targets, attempt, route.Policy{Sleep: noWait})
	fmt.Println(rep.Served, err, len(rep.Attempts))
	// Output:
	// [acme@work/big acme@personal/big other/small]
	// other/small <nil> 3
}
