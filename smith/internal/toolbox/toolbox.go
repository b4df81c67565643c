package toolbox

import (
	"context"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
)

// Tools is a set of tools being loaded for a run. Bind attaches them to the
// run's journal and project directory; Close releases everything, bound or
// not. Safe for use by one goroutine.
type Tools interface {
	// Bind returns the tools acting through j inside root: every effect is
	// recorded (intent durable before the effect) and paths resolve against
	// each call's working directory, never the process's. find, grep and ls
	// skip what .gitignore files and the gitignore-style patterns ignore
	// (configured ignores) exclude. Call it once.
	Bind(j *effect.Journal, root string, ignore []string) ([]agent.Tool, error)
	// Close releases the tools and what they hold open.
	Close(ctx context.Context) error
}

// Source starts loading the tools of a run. It returns before the tools
// are ready where it can, so the loading overlaps the run's other set-up.
type Source func(ctx context.Context) (Tools, error)
