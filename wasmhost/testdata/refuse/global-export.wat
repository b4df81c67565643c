;; exports a global that is not one of wasm-ld's layout symbols
(module
  (memory (export "memory") 1)
  (global (export "counter") i32 (i32.const 0))
  (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32) (i32.const 0))
  (func (export "test:echo/api@0.1.0#echo") (param i32 i32) (result i32) (i32.const 0))
)
