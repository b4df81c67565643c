;; control.wat exercises every way out of a function, so the tests can check
;; the instrumentation keeps results and gives every call level back.
(module
  (type $pair (func (result i32 i32)))
  (memory (export "memory") 1)
  (table 2 funcref)
  (elem (i32.const 0) $early $fact)
  (global $fref funcref (ref.func $fact))

  ;; nop is a leaf; the others call it so that they are instrumented
  (func $nop)

  ;; early(x): return from inside nested blocks, or fall off the end
  (func $early (export "early") (param $x i32) (result i32)
    (call $nop)
    (block
      (block
        (if (i32.gt_u (local.get $x) (i32.const 10))
          (then (return (i32.const 1))))))
    (i32.const 2))

  ;; pair(x): multi-value results through return
  (func (export "pair") (param $x i32) (result i32 i32)
    (call $nop)
    (if (local.get $x) (then (return (i32.const 3) (i32.const 4))))
    (i32.const 5) (i32.const 6))

  ;; branch(x): br and br_if to the function's own label
  (func (export "branch") (param $x i32) (result i32)
    (call $nop)
    (drop (br_if 0 (i32.const 7) (local.get $x)))
    (if (i32.eqz (local.get $x)) (then (br 1 (i32.const 8))))
    (i32.const 9))

  ;; table(x): br_table whose default is the function's label
  (func (export "table") (param $x i32) (result i32)
    (call $nop)
    (block $a (result i32)
      (br_table $a 1 (i32.const 10) (local.get $x)))
    (i32.add (i32.const 1)))

  ;; fact(n): recursion through call and call_indirect
  (func $fact (export "fact") (param $n i64) (result i64)
    (if (result i64) (i64.le_u (local.get $n) (i64.const 1))
      (then (i64.const 1))
      (else
        (i64.mul (local.get $n)
          (call_indirect (param i64) (result i64) (i64.sub (local.get $n) (i64.const 1)) (i32.const 1))))))

  ;; loops(n): n iterations of a loop
  (func (export "loops") (param $n i32) (result i32)
    (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $i))

  ;; grow(n): memory.grow through the host
  (func (export "grow") (param $n i32) (result i32)
    (memory.grow (local.get $n)))

  ;; unreachable code after return still has to validate
  (func (export "dead") (result i32)
    (call $nop)
    (return (i32.const 12))
    (drop (i32.const 0))
    (i32.const 13))
)
