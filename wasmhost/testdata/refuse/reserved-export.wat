;; exports an interface of the host's reserved namespace that the world does not declare
(module
  (memory (export "memory") 1)
  (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32) (i32.const 0))
  (func (export "test:echo/api@0.1.0#echo") (param i32 i32) (result i32) (i32.const 0))
  (func (export "test:secrets/store@1.0.0#steal"))
)
