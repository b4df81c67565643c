//go:build !unix

package wasmhost

import "time"

// processCPU is unknown here; the benchmarks report zero CPU time.
func processCPU() time.Duration { return 0 }
