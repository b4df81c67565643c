package wasmhost_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/smith-agent/smith/wasmhost"
)

// addWasm is this module, compiled by wat2wasm:
//
//	(module
//	  (memory (export "memory") 1)
//	  (global $heap (mut i32) (i32.const 1024))
//	  (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32)
//	    (local $p i32)
//	    (local.set $p (global.get $heap))
//	    (global.set $heap (i32.add (local.get $p) (local.get 3)))
//	    (local.get $p))
//	  (func (export "demo:calc/api@0.1.0#add") (param i32 i32) (result i32)
//	    (i32.add (local.get 0) (local.get 1))))
const addWasm = "\x00\x61\x73\x6d\x01\x00\x00\x00\x01\x0f\x02\x60\x04\x7f\x7f\x7f\x7f\x01\x7f\x60\x02\x7f\x7f\x01\x7f\x03\x03\x02\x00\x01\x05\x03\x01\x00\x01\x06\x07\x01\x7f\x01\x41\x80\x08\x0b\x07\x33\x03\x06\x6d\x65\x6d\x6f\x72\x79\x02\x00\x0c\x63\x61\x62\x69\x5f\x72\x65\x61\x6c\x6c\x6f\x63\x00\x00\x17\x64\x65\x6d\x6f\x3a\x63\x61\x6c\x63\x2f\x61\x70\x69\x40\x30\x2e\x31\x2e\x30\x23\x61\x64\x64\x00\x01\x0a\x1b\x02\x11\x01\x01\x7f\x23\x00\x21\x04\x20\x04\x20\x03\x6a\x24\x00\x20\x04\x0b\x07\x00\x20\x00\x20\x01\x6a\x0b"

func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "wasmhost-example-")
	defer os.RemoveAll(dir)

	eng, err := wasmhost.NewEngine(ctx, wasmhost.Config{CacheDir: dir})
	if err != nil {
		panic(err)
	}
	defer eng.Close(ctx)

	i32 := wasmhost.I32
	world := wasmhost.WorldSpec{
		Package: "demo:calc",
		Version: "0.1.0",
		Exports: []wasmhost.ExportSpec{{
			Name: "demo:calc/api@0.1.0#add",
			Sig:  wasmhost.Signature{Params: []wasmhost.ValueType{i32, i32}, Results: []wasmhost.ValueType{i32}},
		}},
	}
	p, err := eng.Compile(ctx, wasmhost.Artifact{Name: "calc", Reader: strings.NewReader(addWasm)},
		wasmhost.PluginConfig{World: world})
	if err != nil {
		panic(err)
	}
	defer p.Close(ctx)

	gen, _ := wasmhost.NewGeneration(p)
	defer gen.Close()
	in, err := gen.Acquire(ctx, "calc")
	if err != nil {
		panic(err)
	}
	defer in.Release()

	var sum uint32
	err = in.Invoke(ctx, "demo:calc/api@0.1.0#add",
		func(_ *wasmhost.Call, params []uint64) error {
			params[0], params[1] = 40, 2
			return nil
		},
		func(_ *wasmhost.Call, results []uint64) error {
			sum = uint32(results[0])
			return nil
		})
	fmt.Println(sum, err)

	// The same bytes against a world that wants something else are refused
	// before anything runs.
	world.Version = "0.2.0"
	world.Exports[0].Name = "demo:calc/api@0.2.0#add"
	_, err = eng.Compile(ctx, wasmhost.Artifact{Name: "calc", Reader: strings.NewReader(addWasm)},
		wasmhost.PluginConfig{World: world})
	fmt.Println(err)
	// Output:
	// 42 <nil>
	// wasmhost: plugin "calc" refused: export "demo:calc/api@0.1.0#add": targets demo:calc@0.1.0; expected demo:calc@0.2.0; rebuild the plugin against the demo:calc@0.2.0 WIT
}
