package hostops

import "context"

type outputKey struct{}

// WithOutput returns ctx carrying fn, which receives a copy of the output
// of the process a Bash call under ctx runs, as it arrives (see
// hostproc.Options.Output): a frontend's progress for a tool call.
func WithOutput(ctx context.Context, fn func([]byte)) context.Context {
	return context.WithValue(ctx, outputKey{}, fn)
}

// outputFrom returns the output sink ctx carries, or nil.
func outputFrom(ctx context.Context) func([]byte) {
	fn, _ := ctx.Value(outputKey{}).(func([]byte))
	return fn
}
