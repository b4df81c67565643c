;; lacks the required echo export
(module
  (memory (export "memory") 1)
  (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32) (i32.const 0))
  (func (export "test:echo/api@0.1.0#spin") (param i64) (result i64) (local.get 0))
)
