;; a guest as wasm-ld links a cdylib (rustc, clang): it also exports the
;; globals __heap_base and __data_end, which the host accepts and ignores
(module
  (memory (export "memory") 1)
  (global (export "__heap_base") i32 (i32.const 1024))
  (global (export "__data_end") i32 (i32.const 1024))
  (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32) (i32.const 0))
  (func (export "test:echo/api@0.1.0#echo") (param i32 i32) (result i32) (i32.const 0))
)
