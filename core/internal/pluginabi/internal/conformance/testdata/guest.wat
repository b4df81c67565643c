;; The conformance world implemented by hand: the same behaviour as the Go
;; guest (wit/internal/conformance/testguest), so one suite checks both.
;; Layouts follow the canonical ABI for smith:conformance@0.0.0; offsets are
;; commented where they are used. Memory is a bump allocator that never frees.
(module
  (import "smith:conformance/host@0.0.0" "[constructor]counter" (func $counter_new (param i64) (result i32)))
  (import "smith:conformance/host@0.0.0" "[method]counter.add" (func $counter_add (param i32 i64) (result i64)))
  (import "smith:conformance/host@0.0.0" "[resource-drop]counter" (func $counter_drop (param i32)))
  (import "smith:conformance/host@0.0.0" "echo-bundle" (func $echo_bundle (param i32 i32)))
  (import "smith:conformance/host@0.0.0" "check-text" (func $check_text (param i32 i32 i32)))
  (import "smith:conformance/host@0.0.0" "name-shape" (func $name_shape (param i32 i32 i32 i32 i32 i32)))
  (import "[export]smith:conformance/guest@0.0.0" "[resource-new]accumulator" (func $acc_new (param i32) (result i32)))

  (memory (export "memory") 1)
  (data (i32.const 16) "empty name")
  (global $heap (mut i32) (i32.const 1024))

  ;; cabi_realloc(old, old_size, align, new_size) -> ptr
  (func $realloc (export "cabi_realloc") (param $old i32) (param $old_size i32) (param $align i32) (param $size i32) (result i32)
    (local $ptr i32) (local $end i32)
    (if (i32.eqz (local.get $size)) (then (return (local.get $align))))
    (local.set $ptr
      (i32.and
        (i32.add (global.get $heap) (i32.sub (local.get $align) (i32.const 1)))
        (i32.sub (i32.const 0) (local.get $align))))
    (local.set $end (i32.add (local.get $ptr) (local.get $size)))
    (if (i32.gt_u (local.get $end) (i32.mul (memory.size) (i32.const 65536)))
      (then
        (if (i32.eq (i32.const -1)
              (memory.grow (i32.add (i32.const 1)
                (i32.shr_u (i32.sub (local.get $end) (i32.mul (memory.size) (i32.const 65536))) (i32.const 16)))))
          (then unreachable))))
    (global.set $heap (local.get $end))
    (if (local.get $old)
      (then (memory.copy (local.get $ptr) (local.get $old)
        (select (local.get $old_size) (local.get $size) (i32.lt_u (local.get $old_size) (local.get $size))))))
    (local.get $ptr))

  (func $alloc (param $size i32) (param $align i32) (result i32)
    (call $realloc (i32.const 0) (i32.const 0) (local.get $align) (local.get $size)))

  ;; accumulator rep (24 bytes): name ptr @0, name len @4, pushed @8,
  ;; pending ptr @12, pending len @16, has pending @20.
  (func (export "smith:conformance/guest@0.0.0#[constructor]accumulator") (param $ptr i32) (param $len i32) (result i32)
    (local $rep i32)
    (local.set $rep (call $alloc (i32.const 24) (i32.const 4)))
    (i32.store offset=0 (local.get $rep) (local.get $ptr))
    (i32.store offset=4 (local.get $rep) (local.get $len))
    (i32.store offset=8 (local.get $rep) (i32.const 0))
    (i32.store offset=20 (local.get $rep) (i32.const 0))
    (call $acc_new (local.get $rep)))

  (func (export "smith:conformance/guest@0.0.0#[method]accumulator.push") (param $rep i32) (param $ptr i32) (param $len i32) (result i32)
    (i32.store offset=8 (local.get $rep) (i32.add (i32.load offset=8 (local.get $rep)) (local.get $len)))
    (i32.store offset=12 (local.get $rep) (local.get $ptr))
    (i32.store offset=16 (local.get $rep) (local.get $len))
    (i32.store offset=20 (local.get $rep) (i32.const 1))
    (i32.load offset=8 (local.get $rep)))

  ;; result<list<string>, fault>: disc @0, payload @4 (16 bytes, align 4).
  (func (export "smith:conformance/guest@0.0.0#[method]accumulator.drain") (param $rep i32) (result i32)
    (local $ret i32)
    (local.set $ret (call $alloc (i32.const 16) (i32.const 4)))
    (if (i32.load offset=20 (local.get $rep))
      (then
        (i32.store8 (local.get $ret) (i32.const 0))
        (i32.store offset=4 (local.get $ret) (i32.load offset=12 (local.get $rep)))
        (i32.store offset=8 (local.get $ret) (i32.load offset=16 (local.get $rep)))
        (i32.store offset=20 (local.get $rep) (i32.const 0)))
      (else
        ;; fault.invalid(name): fault disc @4, string @8.
        (i32.store8 (local.get $ret) (i32.const 1))
        (i32.store8 offset=4 (local.get $ret) (i32.const 0))
        (i32.store offset=8 (local.get $ret) (i32.load offset=0 (local.get $rep)))
        (i32.store offset=12 (local.get $ret) (i32.load offset=4 (local.get $rep)))))
    (local.get $ret))

  (func (export "smith:conformance/guest@0.0.0#[dtor]accumulator") (param $rep i32))

  ;; transform-bundle(bundle by pointer) -> result<bundle, fault>: disc @0,
  ;; payload @8 (144 bytes, align 8). The bundle's name length is at +12.
  (func (export "smith:conformance/guest@0.0.0#transform-bundle") (param $args i32) (result i32)
    (local $ret i32)
    (local.set $ret (call $alloc (i32.const 144) (i32.const 8)))
    (if (i32.eqz (i32.load offset=12 (local.get $args)))
      (then
        (i32.store8 (local.get $ret) (i32.const 1))
        (i32.store8 offset=8 (local.get $ret) (i32.const 0))
        (i32.store offset=12 (local.get $ret) (i32.const 16))
        (i32.store offset=16 (local.get $ret) (i32.const 10)))
      (else
        (i32.store8 (local.get $ret) (i32.const 0))
        (call $echo_bundle (local.get $args) (i32.add (local.get $ret) (i32.const 8)))))
    (local.get $ret))

  ;; result<u32, fault> has the same layout in both directions: pass it on.
  (func (export "smith:conformance/guest@0.0.0#probe-text") (param $ptr i32) (param $len i32) (result i32)
    (local $ret i32)
    (local.set $ret (call $alloc (i32.const 16) (i32.const 4)))
    (call $check_text (local.get $ptr) (local.get $len) (local.get $ret))
    (local.get $ret))

  (func (export "smith:conformance/guest@0.0.0#probe-shape") (param i32 i32 i32 i32 i32) (result i32)
    (local $ret i32)
    (local.set $ret (call $alloc (i32.const 12) (i32.const 4)))
    (call $name_shape (local.get 0) (local.get 1) (local.get 2) (local.get 3) (local.get 4) (local.get $ret))
    (local.get $ret))

  (func (export "smith:conformance/guest@0.0.0#count-with") (param $counter i32) (param $times i32) (result i64)
    (local $last i64)
    (local.set $last (call $counter_add (local.get $counter) (i64.const 0)))
    (block $done
      (loop $again
        (br_if $done (i32.eqz (local.get $times)))
        (local.set $last (call $counter_add (local.get $counter) (i64.const 1)))
        (local.set $times (i32.sub (local.get $times) (i32.const 1)))
        (br $again)))
    (local.get $last))

  (func (export "smith:conformance/guest@0.0.0#open-counter") (param $start i64) (result i32)
    (local $h i32)
    (local.set $h (call $counter_new (local.get $start)))
    (drop (call $counter_add (local.get $h) (i64.const 1)))
    (local.get $h))

  ;; score-shape(shape: disc + 4 joined i32 slots, option<u64>: disc + i64, color: i32) -> u64
  (func (export "smith:conformance/guest@0.0.0#score-shape")
    (param $disc i32) (param $a i32) (param $b i32) (param $c i32) (param $d i32)
    (param $some i32) (param $extra i64) (param $color i32) (result i64)
    (local $n i64)
    (block $scored
      ;; circle(u32)
      (if (i32.eq (local.get $disc) (i32.const 0))
        (then (local.set $n (i64.extend_i32_u (local.get $a))) (br $scored)))
      ;; rectangle(point{x, y, label}): x + y + label bytes
      (if (i32.eq (local.get $disc) (i32.const 1))
        (then
          (local.set $n (i64.add
            (i64.add (i64.extend_i32_s (local.get $a)) (i64.extend_i32_s (local.get $b)))
            (i64.extend_i32_u (local.get $d))))
          (br $scored)))
      ;; named(string) and unknown(string): bytes
      (if (i32.or (i32.eq (local.get $disc) (i32.const 2)) (i32.eq (local.get $disc) (i32.const 4)))
        (then (local.set $n (i64.extend_i32_u (local.get $b))))))
    (if (i32.eq (local.get $some) (i32.const 1))
      (then (local.set $n (i64.add (local.get $n) (local.get $extra)))))
    (i64.add (local.get $n) (i64.mul (i64.const 1000) (i64.extend_i32_u (local.get $color))))))
