package plugin

import (
	"errors"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/wasmhost"
)

// budgetExamples are the smith.kdl lines that raise each budget a call
// can run out of (core/config's plugin block).
var budgetExamples = map[wasmhost.Budget]string{
	wasmhost.BudgetDeadline: `timeout "2m"`,
	wasmhost.BudgetFuel:     `fuel 10000000000`,
	wasmhost.BudgetMemory:   `memory "256MiB"`,
}

// budgetFix adds to err, a call of plugin name that ran out of its time,
// fuel or memory budget (or a module refused because its initial memory
// is above the budget), where the user raises that budget; any other
// error is returned as it is.
func budgetFix(name string, err error) error {
	var (
		he *wasmhost.Error
		ve *wasmhost.ValidationError
		ex string
	)
	switch {
	case errors.As(err, &he):
		ex = budgetExamples[he.Budget]
	case errors.As(err, &ve):
		for _, p := range ve.Problems {
			if p.Item == "memory" && strings.Contains(p.Want, "memory budget") {
				ex = budgetExamples[wasmhost.BudgetMemory]
			}
		}
	}
	if ex == "" {
		return err
	}
	return fmt.Errorf("%w; if the plugin needs more, raise its budget in smith.kdl: plugin %q { %s }", err, name, ex)
}
