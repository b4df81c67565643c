;; The WebAssembly text example of docs/plugins.md: a plugin written by hand
;; against the canonical ABI, with no toolchain but wat2wasm. It contributes
;; the tool wat_echo, which answers its arguments (the JSON object the model
;; sent) verbatim, and the command /wat-hello, which says hello and writes
;; a record to the plugin log (the capability "log", which plugin.kdl
;; requests: without it the host refuses the module before it runs).
;;
;; A plugin is a core module exporting its memory, cabi_realloc (the host
;; allocates each argument's bytes through it) and one function per WIT
;; export, named "smith:plugin/INTERFACE@0.0.0#FUNCTION". Strings and lists
;; travel as (pointer, length) pairs; a result too big for one value is
;; written to memory and its address returned. cabi_post_NAME runs after the
;; host has read a result: here it frees the call's allocations.
(module
  ;; write-log(message: string, options: log-options): the string as
  ;; (pointer, length), the options record flattened to its one enum level
  ;; (0 debug, 1 info, 2 warning, 3 error).
  (import "smith:plugin/log@0.0.0" "write-log" (func $write_log (param i32 i32 i32)))

  (memory (export "memory") 1)

  ;; Static data: the strings the plugin returns.
  (data (i32.const 0) "wat_echo")                           ;; 0, 8
  (data (i32.const 16) "Answers its arguments verbatim.")   ;; 16, 31
  (data (i32.const 64) "{\"type\":\"object\"}")              ;; 64, 17
  (data (i32.const 96) "wat-hello")                         ;; 96, 9
  (data (i32.const 112) "Says hello from WebAssembly text.") ;; 112, 33
  (data (i32.const 160) "Hello from a plugin written in WebAssembly text.") ;; 160, 48
  (data (i32.const 224) "said hello")                       ;; 224, 10

  ;; Fixed areas the results are written to (the host reads them before
  ;; the next call), then the heap.
  (global $declared i32 (i32.const 1024)) ;; result<contributions, registration-fault>: 4 + 108
  (global $tools i32 (i32.const 1152))    ;; list<tool-definition>: 24 each
  (global $commands i32 (i32.const 1184)) ;; list<command-definition>: 28 each
  (global $invoked i32 (i32.const 1216))  ;; result<tool-output, tool-fault>: 4 + 20
  (global $content i32 (i32.const 1248))  ;; list<content-block>: 20 each
  (global $heap_start i32 (i32.const 4096))
  (global $heap (mut i32) (i32.const 4096))

  ;; cabi_realloc(old, old_size, align, size) -> pointer: a bump allocator.
  ;; The host only ever allocates fresh (old = 0).
  (func (export "cabi_realloc") (param $old i32) (param $old_size i32) (param $align i32) (param $size i32) (result i32)
    (local $p i32)
    ;; p = heap rounded up to align
    (local.set $p
      (i32.and
        (i32.add (global.get $heap) (i32.sub (local.get $align) (i32.const 1)))
        (i32.sub (i32.const 0) (local.get $align))))
    (global.set $heap (i32.add (local.get $p) (local.get $size)))
    ;; grow the memory when the heap passes its end
    (if (i32.gt_u (global.get $heap) (i32.mul (memory.size) (i32.const 65536)))
      (then
        (if (i32.eq (memory.grow
              (i32.add (i32.div_u (i32.sub (global.get $heap) (i32.mul (memory.size) (i32.const 65536))) (i32.const 65536)) (i32.const 1)))
              (i32.const -1))
          (then unreachable))))
    (local.get $p))

  ;; store_string writes the (pointer, length) pair of a string at $at.
  (func $store_string (param $at i32) (param $ptr i32) (param $len i32)
    (i32.store (local.get $at) (local.get $ptr))
    (i32.store offset=4 (local.get $at) (local.get $len)))

  ;; declare-contributions(options: declare-options) -> result<contributions, registration-fault>
  ;; The options (world-version, configuration: two strings) are not needed.
  (func (export "smith:plugin/contrib@0.0.0#declare-contributions")
        (param i32 i32 i32 i32) (result i32)
    ;; One tool definition: name, description, input-schema.
    (call $store_string (global.get $tools) (i32.const 0) (i32.const 8))
    (call $store_string (i32.add (global.get $tools) (i32.const 8)) (i32.const 16) (i32.const 31))
    (call $store_string (i32.add (global.get $tools) (i32.const 16)) (i32.const 64) (i32.const 17))
    ;; One command definition: name, description, argument-hint none.
    (call $store_string (global.get $commands) (i32.const 96) (i32.const 9))
    (call $store_string (i32.add (global.get $commands) (i32.const 8)) (i32.const 112) (i32.const 33))
    (i32.store8 (i32.add (global.get $commands) (i32.const 16)) (i32.const 0))
    ;; ok(contributions): every other list empty, layout none.
    (memory.fill (global.get $declared) (i32.const 0) (i32.const 112))
    (call $store_string (i32.add (global.get $declared) (i32.const 4)) (global.get $tools) (i32.const 1))
    (call $store_string (i32.add (global.get $declared) (i32.const 12)) (global.get $commands) (i32.const 1))
    (global.get $declared))

  ;; equal reports whether the n bytes at a and b are the same.
  (func $equal (param $a i32) (param $b i32) (param $n i32) (result i32)
    (block $differ
      (loop $next
        (if (i32.eqz (local.get $n)) (then (return (i32.const 1))))
        (br_if $differ (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $next)))
    (i32.const 0))

  ;; invoke-tool(call: tool-call, options: invoke-options) -> result<tool-output, tool-fault>
  ;; Flattened: call.id, call.name, call.arguments (pointer, length each),
  ;; options.output-limit, options.working-directory (pointer, length).
  (func (export "smith:plugin/tool@0.0.0#invoke-tool")
        (param $id i32) (param $id_len i32) (param $name i32) (param $name_len i32)
        (param $args i32) (param $args_len i32) (param $limit i32) (param $wd i32) (param $wd_len i32)
        (result i32)
    (local $text i32) (local $text_len i32)
    (memory.fill (global.get $invoked) (i32.const 0) (i32.const 24))
    (if (i32.and (i32.eq (local.get $name_len) (i32.const 8)) (call $equal (local.get $name) (i32.const 0) (i32.const 8)))
      (then ;; wat_echo: the arguments themselves
        (local.set $text (local.get $args))
        (local.set $text_len (local.get $args_len)))
      (else
        (if (i32.and (i32.eq (local.get $name_len) (i32.const 9)) (call $equal (local.get $name) (i32.const 96) (i32.const 9)))
          (then ;; wat-hello
            (call $write_log (i32.const 224) (i32.const 10) (i32.const 1))
            (local.set $text (i32.const 160))
            (local.set $text_len (i32.const 48)))
          (else ;; err(tool-fault::unknown-tool(name))
            (i32.store8 (global.get $invoked) (i32.const 1))
            (i32.store8 (i32.add (global.get $invoked) (i32.const 4)) (i32.const 0))
            (call $store_string (i32.add (global.get $invoked) (i32.const 8)) (local.get $name) (local.get $name_len))
            (return (global.get $invoked))))))
    ;; ok(tool-output { content: [text(...)], details: none })
    (i32.store8 (global.get $content) (i32.const 0))
    (call $store_string (i32.add (global.get $content) (i32.const 4)) (local.get $text) (local.get $text_len))
    (call $store_string (i32.add (global.get $invoked) (i32.const 4)) (global.get $content) (i32.const 1))
    (global.get $invoked))

  ;; After the host has read a result, the call's arguments are garbage.
  (func (export "cabi_post_smith:plugin/tool@0.0.0#invoke-tool") (param i32)
    (global.set $heap (global.get $heap_start)))
  (func (export "cabi_post_smith:plugin/contrib@0.0.0#declare-contributions") (param i32)
    (global.set $heap (global.get $heap_start)))
)
