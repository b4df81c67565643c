package wasmhost

import (
	"encoding/binary"
	"math/rand/v2"
)

const wasiModule = "wasi_snapshot_preview1"

// wasiSubset is the WASI preview 1 subset a guest may import, with core
// signatures. It covers what the Go runtime and os package import. The
// sandbox has no files, environment, arguments or sockets: those calls fail
// deterministically (EBADF, empty lists).
var wasiSubset = map[string]Signature{
	"args_get":            sig(i32s(2), i32s(1)),
	"args_sizes_get":      sig(i32s(2), i32s(1)),
	"environ_get":         sig(i32s(2), i32s(1)),
	"environ_sizes_get":   sig(i32s(2), i32s(1)),
	"clock_res_get":       sig(i32s(2), i32s(1)),
	"clock_time_get":      sig([]ValueType{I32, I64, I32}, i32s(1)),
	"fd_write":            sig(i32s(4), i32s(1)),
	"fd_read":             sig(i32s(4), i32s(1)),
	"fd_close":            sig(i32s(1), i32s(1)),
	"fd_fdstat_get":       sig(i32s(2), i32s(1)),
	"fd_fdstat_set_flags": sig(i32s(2), i32s(1)),
	"fd_filestat_get":     sig(i32s(2), i32s(1)),
	"fd_prestat_get":      sig(i32s(2), i32s(1)),
	"fd_prestat_dir_name": sig(i32s(3), i32s(1)),
	"fd_readdir":          sig([]ValueType{I32, I32, I32, I64, I32}, i32s(1)),
	"fd_seek":             sig([]ValueType{I32, I64, I32, I32}, i32s(1)),
	"path_filestat_get":   sig(i32s(5), i32s(1)),
	"path_open":           sig([]ValueType{I32, I32, I32, I32, I32, I64, I64, I32, I32}, i32s(1)),
	"poll_oneoff":         sig(i32s(4), i32s(1)),
	"proc_exit":           sig(i32s(1), nil),
	"random_get":          sig(i32s(2), i32s(1)),
	"sched_yield":         sig(nil, i32s(1)),
}

func sig(params, results []ValueType) Signature { return Signature{Params: params, Results: results} }

func i32s(n int) []ValueType {
	ts := make([]ValueType, n)
	for i := range ts {
		ts[i] = I32
	}
	return ts
}

// fakeClock serves the guest's clocks: both advance by one millisecond per
// read, so the Go runtime's loops on nanotime terminate, and by the full
// duration of every sleep (poll_oneoff), which returns at once; identical
// call sequences see identical times. Wall time starts at
// 2022-01-01T00:00:00Z.
type fakeClock struct{ ns int64 }

const fakeEpoch = 1640995200 // 2022-01-01T00:00:00Z in Unix seconds

func (c *fakeClock) nanotime() int64 {
	c.ns += 1e6
	return c.ns
}

func (c *fakeClock) sleep(ns int64) {
	if ns > 0 {
		c.ns += ns
	}
}

func (c *fakeClock) walltime() (int64, int32) {
	ns := c.nanotime()
	return fakeEpoch + ns/1e9, int32(ns % 1e9)
}

// seededRand returns the guest's random source for seed.
func seededRand(seed uint64) *rand.ChaCha8 {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	copy(key[8:], "smith-wasmhost-random-seed")
	return rand.NewChaCha8(key)
}
