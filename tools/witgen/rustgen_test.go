package main

import (
	"path/filepath"
	"strings"
	"testing"

	"go.bytecodealliance.org/wit"
)

func TestRustNames(t *testing.T) {
	tests := []struct {
		name, in, typ, snake string
	}{
		{name: "simple", in: "tool-call", typ: "ToolCall", snake: "tool_call"},
		{name: "no-initialisms", in: "http-fault", typ: "HttpFault", snake: "http_fault"},
		{name: "keyword", in: "type", typ: "Type", snake: "type_"},
		{name: "escaped-keyword", in: "%type", typ: "Type", snake: "type_"},
		{name: "reserved", in: "box", typ: "Box", snake: "box_"},
		{name: "single", in: "f", typ: "F", snake: "f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rustTypeName(tt.in); got != tt.typ {
				t.Errorf("rustTypeName(%q) = %q; want %q", tt.in, got, tt.typ)
			}
			if got := rustSnake(tt.in); got != tt.snake {
				t.Errorf("rustSnake(%q) = %q; want %q", tt.in, got, tt.snake)
			}
		})
	}
	if got := rustParam("keep"); got != "keep_" {
		t.Errorf("rustParam(keep) = %q; want keep_ (a generated local)", got)
	}
}

func TestIndentRust(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "nesting", in: "fn f() {\nlet x = [\n1,\n];\n}", want: "fn f() {\n    let x = [\n        1,\n    ];\n}"},
		{name: "else", in: "if a {\nb\n} else {\nc\n}", want: "if a {\n    b\n} else {\n    c\n}"},
		{name: "braces-in-strings", in: "f(\"{(\\\"\");\nx", want: "f(\"{(\\\"\");\nx"},
		{name: "braces-in-comments", in: "/// {\nx", want: "/// {\nx"},
		{name: "blank-lines", in: "{\n\nx\n}", want: "{\n\n    x\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := indentRust(tt.in); got != tt.want {
				t.Errorf("indentRust:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestRustBindingsFollowContract checks the generated plugin bindings
// against the signatures /work/notes/rust-api.md promises plugin authors.
func TestRustBindingsFollowContract(t *testing.T) {
	src, err := genRust(plugin(t), "wit")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{
		"pub mod types {", "pub mod fs {", "pub mod process {", "pub mod log {", "pub mod http {", "pub mod secrets {",
		"pub mod ui {", "pub mod vcs {", "pub mod contrib {", "pub mod tool {", "pub mod provider {", "pub mod handler {", "pub mod rt {",
		"pub fn read_file(path: &str, options: &ReadOptions) -> Result<FileText, FileFault> {",
		"pub fn run_process(command: &Command, options: &RunOptions) -> Result<ProcessOutcome, ProcessFault> {",
		"pub fn edit_file(path: &str, edits: &[TextEdit], options: &EditOptions) -> Result<EditOutcome, FileFault> {",
		"pub fn store_secret(name: &str, value: &str, options: &StoreOptions) -> Result<(), SecretFault> {",
		"pub fn write_log(message: &str, options: &LogOptions) {",
		"fn invoke_tool(call: ToolCall, options: InvokeOptions) -> Result<ToolOutput, ToolFault>;",
		"pub content: Vec<super::types::ContentBlock>,",
		"pub enum ToolFault {\n        /// The plugin has no tool of that name.\n        UnknownTool(String),",
		"#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]\n    pub enum EntryKind {\n        /// A regular file.\n        #[default]\n        File,",
		"#[derive(Debug, Clone, PartialEq, Default)]\n    pub struct ReadOptions {",
		"#[derive(Debug, Clone, PartialEq, Default)]\n    pub struct ToolOutput {",
		"#[derive(Debug, Clone, PartialEq)]\n    pub enum ContentBlock {",
		"#[derive(Debug, Clone, PartialEq, Default)]\n    pub struct Contributions {",
		"#[macro_export]\n    macro_rules! export_tool {",
		`#[export_name = "smith:plugin/tool@0.0.0#invoke-tool"]`,
		`#[export_name = "cabi_post_smith:plugin/tool@0.0.0#invoke-tool"]`,
		"$crate::smith_plugin::tool::__export_invoke_tool::<$t>(",
		"#[no_mangle]\n    pub unsafe extern \"C\" fn cabi_realloc(",
		"#![cfg_attr(rustfmt, rustfmt::skip)]",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("wit/rust/smith_plugin.rs lacks %q", want)
		}
	}
}

// TestRustBindingsCarryDocs checks that every WIT doc comment of the
// world is in the Rust bindings as a doc comment.
func TestRustBindingsCarryDocs(t *testing.T) {
	m := plugin(t)
	src, err := genRust(m, "wit")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	check := func(what, docs string) {
		for _, line := range strings.Split(strings.TrimSpace(docs), "\n") {
			if want := strings.TrimRight("/// "+line, " "); !strings.Contains(s, want+"\n") {
				t.Errorf("%s: doc line %q missing", what, want)
			}
		}
	}
	for _, in := range m.ifaces {
		check(in.name, in.wi.Docs.Contents)
		for _, f := range in.funcs {
			check(in.name+"."+f.Name, f.Docs.Contents)
		}
		for _, td := range in.types {
			check(in.name+"."+*td.Name, td.Docs.Contents)
			switch k := td.Kind.(type) {
			case *wit.Record:
				for _, f := range k.Fields {
					check(in.name+"."+*td.Name+"."+f.Name, f.Docs.Contents)
				}
			case *wit.Variant:
				for _, c := range k.Cases {
					check(in.name+"."+*td.Name+"."+c.Name, c.Docs.Contents)
				}
			case *wit.Enum:
				for _, c := range k.Cases {
					check(in.name+"."+*td.Name+"."+c.Name, c.Docs.Contents)
				}
			}
		}
	}
}

// TestRustRefusesUnsupported checks that WIT the Rust generator cannot
// bind is refused with the reason, never emitted as code that does not
// compile.
func TestRustRefusesUnsupported(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{
			name: "tuple",
			src:  "interface api { read-pair: func() -> tuple<u32, string>; }",
			want: "tuple is not supported; use a record",
		},
		{
			name: "flags",
			src:  "interface api { flags perms { read, write } read-perms: func() -> perms; }",
			want: "flags are not supported; use a record of bools",
		},
		{
			name: "imported-resource",
			src:  "interface api { resource file { read-all: func() -> string; } }",
			want: "imported resource file is not supported",
		},
		{
			name: "shadowing-name",
			src:  "interface api { record %result { ok: bool } read-r: func() -> %result; }",
			want: "its Rust name Result shadows a name the bindings use",
		},
		{
			name: "static-function",
			src:  "interface api { resource file { open: static func() -> file; } }",
			want: "static resource functions are not supported",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			world := "world w { import api; }"
			if tt.name == "static-function" {
				world = "world w { export api; }"
			}
			m, err := loadTemp(t, "package test:rust@0.0.0;\n"+world+"\n"+tt.src)
			if err != nil {
				t.Fatal(err)
			}
			_, err = genRust(m, "wit")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("genRust error = %v; want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestRustcMissingFails checks the message the Rust tests fail with on a
// machine without the compiler: they must name the fix, not skip.
func TestRustcMissingFails(t *testing.T) {
	err := checkRustc(filepath.Join(t.TempDir(), "rustc"))
	if err == nil || !strings.Contains(err.Error(), "run scripts/deps.sh") {
		t.Errorf("checkRustc(missing) = %v; want an error telling to run scripts/deps.sh", err)
	}
}
