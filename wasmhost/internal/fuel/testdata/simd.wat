;; Fixed-width SIMD instructions of every immediate shape, in a loop (so a
;; charge is inserted after them): a misread immediate shifts the rest of
;; the body and the instrumented module fails to validate or to compute.
(module
  (memory (export "memory") 1)
  ;; simd(n): n turns adding a shuffled, lane-loaded vector to an
  ;; accumulator kept in memory; returns lane 0 + lane 15 of the result.
  (func (export "simd") (param $n i32) (result i32)
    (local $acc v128) (local $i i32)
    (v128.store offset=16 align=16 (i32.const 0)
      (v128.const i8x16 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16))
    (loop $l
      (local.set $acc
        (i8x16.add (local.get $acc)
          (i8x16.shuffle 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0
            (v128.load offset=16 (i32.const 0))
            (v128.load8_lane 3 (i32.const 16) (v128.load32_zero (i32.const 16))))))
      (local.set $acc (i8x16.replace_lane 1 (local.get $acc) (i32.const 0)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (v128.store8_lane 0 (i32.const 64) (local.get $acc))
    (i32.add (i8x16.extract_lane_u 0 (local.get $acc))
             (i8x16.extract_lane_u 15 (local.get $acc))))
)
