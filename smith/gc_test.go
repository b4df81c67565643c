package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestDeferStartupGC: without a GC policy in the environment the start-up
// policy collects only near the memory limit; a user's GOGC or GOMEMLIMIT
// leaves the runtime's settings alone.
func TestDeferStartupGC(t *testing.T) {
	restore := func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}
	t.Cleanup(restore)
	tests := []struct {
		name      string
		env       map[string]string
		wantGC    int
		wantLimit int64
	}{
		{name: "no policy", env: map[string]string{}, wantGC: -1, wantLimit: startupMemoryLimit},
		{name: "GOGC set", env: map[string]string{"GOGC": "50"}, wantGC: 100, wantLimit: math.MaxInt64},
		{name: "GOMEMLIMIT set", env: map[string]string{"GOMEMLIMIT": "1GiB"}, wantGC: 100, wantLimit: math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			restore()
			deferStartupGC(func(k string) string { return tt.env[k] })
			gc := debug.SetGCPercent(100)
			limit := debug.SetMemoryLimit(-1)
			if gc != tt.wantGC || limit != tt.wantLimit {
				t.Errorf("GC percent %d, memory limit %d; want %d, %d", gc, limit, tt.wantGC, tt.wantLimit)
			}
		})
	}
}
