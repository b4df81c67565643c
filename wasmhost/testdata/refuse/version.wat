;; was built against another version of the world
(module
  (import "test:echo/host@0.2.0" "tick" (func))
  (memory (export "memory") 1)
  (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32) (i32.const 0))
  (func (export "test:echo/api@0.2.0#echo") (param i32 i32) (result i32) (i32.const 0))
)
