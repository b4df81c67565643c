package main

import (
	"math"
	"runtime/debug"
	"time"
)

// Start-up garbage collection. A run's first request needs the plugins'
// compiled code deserialized and validated, which allocates a few MiB in a
// process whose heap starts empty; at the default GOGC the collector runs
// during that work and, on a two-core machine, takes a core from it (start
// → first request: median 25.7 ms with it, 16.8 ms without, on the same
// machine; peak RSS unchanged, because the start-up garbage is small). So
// for its first startupGCWindow the process collects only when the heap
// nears startupMemoryLimit, then goes back to the defaults. A user's own
// GOGC or GOMEMLIMIT is left alone. The limit is twice a warm turn's peak
// heap, not more: a long first answer (megabytes of streamed text) reaches
// it within the window, and at 64 MiB BenchmarkEvalHugeAnswer peaked at
// 64 MiB whatever the answer really kept live.
const (
	startupGCWindow    = 2 * time.Second
	startupMemoryLimit = 32 << 20
)

// deferStartupGC applies the start-up policy when the environment sets no
// GC policy of its own; getenv reads the environment.
func deferStartupGC(getenv func(string) string) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(startupMemoryLimit)
	time.AfterFunc(startupGCWindow, func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}
