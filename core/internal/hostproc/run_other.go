//go:build !unix

package hostproc

import (
	"context"
	"fmt"
	"runtime"

	"github.com/smith-agent/smith/core/model"
)

// Run is not implemented on this platform yet: it needs process groups.
func Run(ctx context.Context, command string, o Options) (Result, error) {
	return Result{Mutation: model.MutationNotApplied}, fmt.Errorf("hostproc: running commands is not supported on %s yet", runtime.GOOS)
}
