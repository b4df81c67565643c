// Package wit is Smith's plugin API: the smith:plugin WIT package (the
// *.wit files beside this one; reference in docs/reference.md) and the Go
// guest bindings generated from it, one package per interface.
//
// A Go plugin is a wasip1 reactor built with the standard toolchain:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags='-s -w'
//
// It implements the exported interfaces it contributes and calls the
// imported ones it was granted:
//
//	package main
//
//	import (
//		"github.com/smith-agent/smith/wit/contrib"
//		"github.com/smith-agent/smith/wit/fs"
//		"github.com/smith-agent/smith/wit/tool"
//		"github.com/smith-agent/smith/wit/types"
//	)
//
//	func init() {
//		contrib.Export(plugin{})
//		tool.Export(plugin{})
//	}
//
//	func main() {}
//
//	type plugin struct{}
//
//	func (plugin) DeclareContributions(contrib.DeclareOptions) (contrib.Contributions, error) {
//		return contrib.Contributions{Tools: []contrib.ToolDefinition{{
//			Name: "cat", Description: "Prints a file.", InputSchema: `{"type":"object"}`,
//		}}}, nil
//	}
//
//	func (plugin) InvokeTool(call tool.ToolCall, _ tool.InvokeOptions) (tool.ToolOutput, error) {
//		text, err := fs.ReadFile("notes.txt", fs.ReadOptions{ByteLimit: 1 << 20})
//		if err != nil {
//			return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultEffectFailure, EffectFailure: err.Error()}
//		}
//		return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: text.Text}}}, nil
//	}
//
// The bindings follow the canonical ABI by hand (Go's wasm pointers are 64
// bits wide, so no Go struct matches a 32-bit layout) and export
// cabi_realloc. A guest fault is returned as the interface's fault type;
// any other error becomes its `unknown` case.
//
// A Rust plugin (rustc 1.63 or later, wasm32-wasi, no crates needed)
// includes the generated rust/smith_plugin.rs at its crate root, implements
// each exported interface's Guest trait and registers it with the
// interface's export macro; plugins-src/tools is one:
//
//	#[path = "../../../wit/rust/smith_plugin.rs"]
//	mod smith_plugin;
//
//	struct Tools;
//	impl smith_plugin::tool::Guest for Tools { /* invoke_tool */ }
//	crate::export_tool!(Tools);
//
// and builds as a cdylib: rustc --crate-type cdylib --target wasm32-wasi
// -C panic=abort src/lib.rs.
package wit
