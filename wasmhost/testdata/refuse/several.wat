;; has several problems at once
(module
  (import "wasi_snapshot_preview1" "sock_open" (func (param i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "extra"))
)
