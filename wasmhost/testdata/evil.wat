;; evil.wat: a guest whose allocator lies. cabi_realloc returns a pointer
;; past the end of memory, so every host lowering through Alloc must fail
;; cleanly.
(module
  (import "test:echo/host@0.1.0" "greet" (func $greet (param i32 i32 i32)))
  (memory (export "memory") 1)
  (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32)
    (i32.const 0xfffffff0))
  (func (export "test:echo/api@0.1.0#echo") (param i32 i32) (result i32)
    (i32.const 16))
  (func (export "test:echo/api@0.1.0#greet") (param $p i32) (param $n i32) (result i32)
    (call $greet (local.get $p) (local.get $n) (i32.const 16))
    (i32.const 16))
)
