package toolbox

import (
	"context"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
)

// Set is the tools of one run and what they hold open.
type Set struct {
	Tools []agent.Tool
	// Close releases the tools' resources; nil means nothing to release.
	Close func(context.Context) error
}

// Source opens the tools for a run in the project directory root. Every
// effect they perform is recorded through j (intent durable before the
// effect). Paths resolve against each call's working directory, never the
// process's, and stay inside root.
type Source func(ctx context.Context, j *effect.Journal, root string) (Set, error)
