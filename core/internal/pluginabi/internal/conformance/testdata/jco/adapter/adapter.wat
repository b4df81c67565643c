;; A stateless wasi_snapshot_preview1 adapter for Go guests under jco.
;; jco's bundled reactor adapter calls the guest's cabi_realloc during Go's
;; _initialize, before the Go runtime is up, and crashes it; this one never
;; allocates. It serves the ten WASI functions the Go runtime imports, as
;; wasmhost does: an advancing fake clock, a fixed pseudo-random sequence,
;; output discarded, no arguments, no environment.
(module
  (import "env" "memory" (memory 0))
  (global $now (mut i64) (i64.const 1640995200000000000))
  (global $seed (mut i32) (i32.const 12345))
  (func (export "sched_yield") (result i32) (i32.const 0))
  (func (export "proc_exit") (param i32) unreachable)
  (func (export "args_get") (param i32 i32) (result i32) (i32.const 0))
  (func (export "args_sizes_get") (param $argc i32) (param $size i32) (result i32)
    (i32.store (local.get $argc) (i32.const 0))
    (i32.store (local.get $size) (i32.const 0))
    (i32.const 0))
  (func (export "environ_get") (param i32 i32) (result i32) (i32.const 0))
  (func (export "environ_sizes_get") (param $count i32) (param $size i32) (result i32)
    (i32.store (local.get $count) (i32.const 0))
    (i32.store (local.get $size) (i32.const 0))
    (i32.const 0))
  (func (export "clock_time_get") (param i32 i64) (param $out i32) (result i32)
    (global.set $now (i64.add (global.get $now) (i64.const 1000000)))
    (i64.store (local.get $out) (global.get $now))
    (i32.const 0))
  (func (export "fd_write") (param i32) (param $iovs i32) (param $n i32) (param $written i32) (result i32)
    (local $total i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $n)))
        (local.set $total (i32.add (local.get $total) (i32.load offset=4 (local.get $iovs))))
        (local.set $iovs (i32.add (local.get $iovs) (i32.const 8)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $next)))
    (i32.store (local.get $written) (local.get $total))
    (i32.const 0))
  (func (export "random_get") (param $buf i32) (param $len i32) (result i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $len)))
        (global.set $seed (i32.add (i32.mul (global.get $seed) (i32.const 1103515245)) (i32.const 12345)))
        (i32.store8 (local.get $buf) (i32.shr_u (global.get $seed) (i32.const 16)))
        (local.set $buf (i32.add (local.get $buf) (i32.const 1)))
        (local.set $len (i32.sub (local.get $len) (i32.const 1)))
        (br $next)))
    (i32.const 0))
  (func (export "poll_oneoff") (param i32 i32 i32) (param $events i32) (result i32)
    (i32.store (local.get $events) (i32.const 0))
    (i32.const 0)))
