;; imports a world function it was not granted
(module
  (import "test:echo/host@0.1.0" "greet" (func (param i32 i32 i32)))
  (memory (export "memory") 1)
  (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32) (i32.const 0))
  (func (export "test:echo/api@0.1.0#echo") (param i32 i32) (result i32) (i32.const 0))
)
