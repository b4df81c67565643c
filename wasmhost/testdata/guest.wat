;; guest.wat: the hand-written guest of the test world test:echo@0.1.0.
;; It follows the canonical ABI's core-module convention: a bump allocator as
;; cabi_realloc, reset by cabi_post_*, and results through a return area.
;; Besides the well-behaved exports it carries the hostile ones the tests use.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "test:echo/host@0.1.0" "tick" (func $tick))
  (import "test:echo/host@0.1.0" "greet" (func $greet (param i32 i32 i32)))
  (memory (export "memory") 1)
  (global $heap (mut i32) (i32.const 4096))
  (global $count (mut i64) (i64.const 0))

  ;; return area at 16: (ptr, len)
  (data (i32.const 64) "\ff\fe bad utf-8")
  (data (i32.const 128) "flood flood flood flood flood flood flood flood flood flood\n")

  (func $realloc (export "cabi_realloc") (param $old i32) (param $oldsize i32) (param $align i32) (param $size i32) (result i32)
    (local $ptr i32) (local $end i32)
    ;; align up
    (local.set $ptr
      (i32.and
        (i32.add (global.get $heap) (i32.sub (local.get $align) (i32.const 1)))
        (i32.sub (i32.const 0) (local.get $align))))
    (local.set $end (i32.add (local.get $ptr) (local.get $size)))
    ;; grow memory as needed
    (block $done
      (loop $grow
        (br_if $done (i32.le_u (local.get $end) (i32.mul (memory.size) (i32.const 65536))))
        (if (i32.eq (memory.grow (i32.const 1)) (i32.const -1)) (then unreachable))
        (br $grow)))
    ;; copy old contents on reallocation
    (if (local.get $old)
      (then (memory.copy (local.get $ptr) (local.get $old) (local.get $oldsize))))
    (global.set $heap (local.get $end))
    (local.get $ptr))

  ;; echo(s: string) -> string
  (func (export "test:echo/api@0.1.0#echo") (param $p i32) (param $n i32) (result i32)
    (i32.store (i32.const 16) (local.get $p))
    (i32.store (i32.const 20) (local.get $n))
    (i32.const 16))
  (func (export "cabi_post_test:echo/api@0.1.0#echo") (param i32)
    (global.set $heap (i32.const 4096)))

  ;; greet(s: string) -> string, through the host import greet(ptr, len, retptr)
  (func (export "test:echo/api@0.1.0#greet") (param $p i32) (param $n i32) (result i32)
    (call $greet (local.get $p) (local.get $n) (i32.const 16))
    (i32.const 16))

  ;; spin(n: u64) -> u64: n loop iterations of arithmetic
  (func (export "test:echo/api@0.1.0#spin") (param $n i64) (result i64)
    (local $acc i64)
    (block $done
      (loop $l
        (br_if $done (i64.eqz (local.get $n)))
        (local.set $acc (i64.add (i64.mul (local.get $acc) (i64.const 31)) (local.get $n)))
        (local.set $n (i64.sub (local.get $n) (i64.const 1)))
        (br $l)))
    (local.get $acc))

  ;; forever(): an infinite loop with no calls
  (func (export "test:echo/api@0.1.0#forever")
    (loop $l (br $l)))

  ;; ticks(): calls the host's tick in an endless loop
  (func (export "test:echo/api@0.1.0#ticks")
    (loop $l (call $tick) (br $l)))

  ;; bomb(): grows memory one page at a time forever
  (func (export "test:echo/api@0.1.0#bomb")
    (loop $l
      (if (i32.eq (memory.grow (i32.const 1)) (i32.const -1)) (then unreachable))
      (br $l)))

  ;; recurse(n) -> n: unbounded recursion
  (func $recurse (export "test:echo/api@0.1.0#recurse") (param $n i32) (result i32)
    (i32.add (call $recurse (i32.add (local.get $n) (i32.const 1))) (i32.const 1)))

  ;; nest(n) -> n: n nested calls below this one
  (func $nest (export "test:echo/api@0.1.0#nest") (param $n i32) (result i32)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 0))
      (else (i32.add (call $nest (i32.sub (local.get $n) (i32.const 1))) (i32.const 1)))))

  ;; flood(): writes to stdout forever
  (func (export "test:echo/api@0.1.0#flood")
    (i32.store (i32.const 32) (i32.const 128))
    (i32.store (i32.const 36) (i32.const 60))
    (loop $l
      (drop (call $fd_write (i32.const 1) (i32.const 32) (i32.const 1) (i32.const 40)))
      (br $l)))

  ;; bad-utf8() -> string: returns bytes that are not UTF-8
  (func (export "test:echo/api@0.1.0#bad-utf8") (result i32)
    (i32.store (i32.const 16) (i32.const 64))
    (i32.store (i32.const 20) (i32.const 13))
    (i32.const 16))

  ;; out-of-bounds() -> string: returns a pointer past the end of memory
  (func (export "test:echo/api@0.1.0#out-of-bounds") (result i32)
    (i32.store (i32.const 16) (i32.const 65000))
    (i32.store (i32.const 20) (i32.const 1000))
    (i32.const 16))

  ;; trap(): unreachable
  (func (export "test:echo/api@0.1.0#trap")
    unreachable)
)
