;; has no cabi_realloc
(module
  (memory (export "memory") 1)
  (func (export "test:echo/api@0.1.0#echo") (param i32 i32) (result i32) (i32.const 0))
)
