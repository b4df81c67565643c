package main

import (
	"bytes"
	"context"
	"fmt"
	"go.bytecodealliance.org/wit"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/wasmhost"
)

// startGuest compiles the Rust test guest with hosts for fs, process and
// the decoder resource only: importing any other interface would be
// refused as ungranted.
func startGuest(t *testing.T, recycle int64) *guestRun {
	t.Helper()
	m := plugin(t)
	h := &fakeHost{results: hostResults(), handles: map[uint32]uint32{}}
	return startPlugin(t, m, rustGuest(t), h, recycle, h.module(t, m, "fs"), h.module(t, m, "process"), h.resourceModule())
}

// rawResult is a host result written to the return area as is, to hand
// the guest malformed data.
type rawResult []byte

// hostResults are the fake host's answers, chosen by the first argument.
func hostResults() map[string]func(args []any) any {
	const maxU64 = ^uint64(0)
	return map[string]func(args []any) any{
		"fs.read-file": func(args []any) any {
			switch p := args[0].(string); {
			case p == "missing":
				return cv{1, cv{0, "missing"}}
			case p == "corrupt":
				// result err (1), then file-fault at offset 8 with
				// discriminant 9 of 6 cases.
				return rawResult{1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
			case p == "big":
				return cv{1, cv{2, uint64(1<<63 + 5)}}
			case strings.HasPrefix(p, "large"):
				return cv{0, []any{strings.Repeat("x", 32<<10), uint32(1), false}}
			}
			return cv{0, []any{"l2\nl3 ✓", uint32(10), true}}
		},
		"fs.write-file": func([]any) any { return cv{0, maxU64} },
		"fs.edit-file": func(args []any) any {
			if len(args[1].([]any)) == 0 {
				return cv{1, cv{4, "no edits"}}
			}
			return cv{0, []any{"--- diff", uint32(7)}}
		},
		"fs.list-directory": func([]any) any {
			return cv{0, []any{[]any{"a.go", cv{0, nil}}, []any{"dir", cv{1, nil}}, []any{"ln", cv{2, nil}}}}
		},
		"fs.find-files": func(args []any) any {
			if args[0] == "large" {
				paths := make([]any, 2000)
				for i := range paths {
					paths[i] = fmt.Sprintf("f%07d", i)
				}
				return cv{0, paths}
			}
			return cv{0, []any{"x/a.go", "b.go"}}
		},
		"fs.search-text": func(args []any) any {
			if args[0] == "" {
				return cv{1, cv{5, "bad pattern"}}
			}
			return cv{0, []any{[]any{"a.go", uint32(3), "needle here"}, []any{"b/c.go", uint32(40000), ""}}}
		},
		"process.run-process": func(args []any) any {
			switch args[0].([]any)[0] {
			case "sleep":
				return cv{1, cv{1, []any{uint32(1500), "so far", true}}}
			case "cancel":
				return cv{1, cv{2, nil}}
			case "killed":
				return cv{0, []any{cv{0, nil}, "", false}}
			}
			return cv{0, []any{cv{1, int32(-2)}, "out", true}}
		},
	}
}

// text is a content-block text case.
func text(s string) any { return cv{0, s} }

// TestRustGuestRoundTrips runs the Rust test guest, built against the
// generated bindings, through wasmhost and the test codec: every export
// with the arguments lowered by the host, every import with results the
// host stores, and every value shape the world uses in both directions.
func TestRustGuestRoundTrips(t *testing.T) {
	g := startGuest(t, 0)
	in := g.acquire(t)
	defer in.Release()
	const maxU64 = ^uint64(0)
	unknownKind := lastCase(t, plugin(t), "event-kind")
	invoke := func(id, name, arguments string) any {
		return g.call(t, in, "tool", "invoke-tool", []any{id, name, arguments}, []any{uint32(1 << 20), "/work"})
	}
	ok := func(details any, content ...any) any {
		if content == nil {
			content = []any{}
		}
		return cv{0, []any{content, details}}
	}
	tests := []struct {
		name     string
		got      func() any
		want     any
		imported []string // the import calls, with the arguments the host received
	}{
		{
			name: "contrib-ok",
			got: func() any {
				return g.call(t, in, "contrib", "declare-contributions", []any{"0.0.0", `{"k":1}`})
			},
			want: cv{0, []any{
				[]any{[]any{"read", "Reads a file.", `{"k":1}`}, []any{"ünïcode ✓", "", "{}"}},
				[]any{[]any{"compact", "Compacts.", cv{1, "<model>"}}, []any{"clear", "Clears.", none()}},
				[]any{[]any{"example", "Example", []any{"api-key", "org?"}, []any{[]any{"wire-field", cv{1, nil}, []any{"a", "b"}, `"a"`, "Names the field."}}}},
				[]any{[]any{"example", "m1", "M1", uint32(200000), uint32(4294967295), true, false}},
				[]any{cv{2, nil}, cv{0, nil}, cv{unknownKind, nil}},
				[]any{[]any{"system", "Says who."}},
				[]any{[]any{"notes", ""}},
				[]any{[]any{"submit", []any{"enter", "ctrl+s"}}},
				[]any{[]any{"accent", "bold #ff8800"}},
				none(),
			}},
		},
		{
			name: "contrib-err",
			got: func() any {
				return g.call(t, in, "contrib", "declare-contributions", []any{"0.0.0", `{"fail":true}`})
			},
			want: cv{1, cv{0, "0.0.0"}},
		},
		{
			name:     "read-ok",
			got:      func() any { return invoke("c1", "read", "ok.txt") },
			want:     ok(cv{1, `{"id":"c1"}`}, text(`Ok(FileText { text: "l2\nl3 ✓", total_lines: 10, truncated: true })`)),
			imported: []string{"fs.read-file[ok.txt [2 3 1099511627776]]"},
		},
		{
			name:     "read-not-found",
			got:      func() any { return invoke("", "read", "missing") },
			want:     ok(none(), text(`Err(NotFound("missing"))`)),
			imported: []string{"fs.read-file[missing [2 3 1099511627776]]"},
		},
		{
			name:     "read-too-large-u64",
			got:      func() any { return invoke("", "read", "big") },
			want:     ok(none(), text(`Err(TooLarge(9223372036854775813))`)),
			imported: []string{"fs.read-file[big [2 3 1099511627776]]"},
		},
		{
			name:     "write",
			got:      func() any { return invoke("", "write", "w.txt") },
			want:     ok(none(), text(`Ok(18446744073709551615)`)),
			imported: []string{"fs.write-file[w.txt content ✓ [true]]"},
		},
		{
			name:     "edit-list-of-records",
			got:      func() any { return invoke("", "edit", "e.txt") },
			want:     ok(none(), text("--- diff"), text("7")),
			imported: []string{fmt.Sprintf("fs.edit-file[e.txt [[a b] [ ç]] [%d]]", maxU64)},
		},
		{
			name:     "edit-empty-list",
			got:      func() any { return invoke("", "edit-none", "e.txt") },
			want:     ok(none(), text(`Err(EditConflict("no edits"))`)),
			imported: []string{"fs.edit-file[e.txt [] [0]]"},
		},
		{
			name:     "list-enums",
			got:      func() any { return invoke("", "list", "/d") },
			want:     ok(none(), text("a.go:File"), text("dir:Directory"), text("ln:Symlink")),
			imported: []string{"fs.list-directory[/d [7]]"},
		},
		{
			name:     "find-list-of-strings",
			got:      func() any { return invoke("", "find", "**/*.go") },
			want:     ok(none(), text("x/a.go"), text("b.go")),
			imported: []string{"fs.find-files[**/*.go /work [0 true]]"},
		},
		{
			name:     "search-nested-lists",
			got:      func() any { return invoke("", "search", "needle") },
			want:     ok(none(), text("a.go:3:needle here"), text("b/c.go:40000:")),
			imported: []string{"fs.search-text[needle dir [#1(*.go) true false 100]]"},
		},
		{
			name:     "search-fault-option-none()",
			got:      func() any { return invoke("", "search", "") },
			want:     cv{1, cv{2, `Unknown("bad pattern")`}},
			imported: []string{"fs.search-text[ dir [#0(<nil>) true false 100]]"},
		},
		{
			name:     "run-option-some-negative",
			got:      func() any { return invoke("", "run", "echo") },
			want:     ok(none(), text(`Ok(ProcessOutcome { exit_code: Some(-2), output: "out", truncated: true })`)),
			imported: []string{"process.run-process[[echo /work] [1500 1048576]]"},
		},
		{
			name:     "run-option-none()",
			got:      func() any { return invoke("", "run", "killed") },
			want:     ok(none(), text(`Ok(ProcessOutcome { exit_code: None, output: "", truncated: false })`)),
			imported: []string{"process.run-process[[killed /work] [1500 1048576]]"},
		},
		{
			name:     "run-variant-record",
			got:      func() any { return invoke("", "run", "sleep") },
			want:     ok(none(), text(`Err(Timeout(TimedOut { limit_ms: 1500, output: "so far", truncated: true }))`)),
			imported: []string{"process.run-process[[sleep /work] [1500 1048576]]"},
		},
		{
			name:     "run-variant-no-payload",
			got:      func() any { return invoke("", "run", "cancel") },
			want:     ok(none(), text(`Err(Cancelled)`)),
			imported: []string{"process.run-process[[cancel /work] [1500 1048576]]"},
		},
		{
			name: "content-blocks",
			got:  func() any { return invoke("", "image", "PNG✓") },
			want: ok(none(), cv{1, []any{"image/png", []byte("PNG✓")}}, cv{2, "video"}, cv{1, []any{"", []byte(nil)}}),
		},
		{
			name: "empty-content",
			got:  func() any { return invoke("", "empty", "") },
			want: ok(none()),
		},
		{
			name: "fault-unknown-tool",
			got:  func() any { return invoke("", "nope", "") },
			want: cv{1, cv{0, "nope"}},
		},
		{
			name: "fault-empty-string",
			got:  func() any { return invoke("", "cancelled", "") },
			want: cv{1, cv{3, ""}},
		},
		{
			name: "handler",
			got: func() any {
				return g.call(t, in, "handler", "handle-event", []any{cv{2, nil}, uint64(1<<40 + 1), "p"}, []any{true, "{}"})
			},
			want: cv{0, []any{cv{0, "TurnEnd 1099511627777"}, cv{3, nil}, cv{5, []any{"example", "p"}}, cv{6, []any{"bash", true}}, cv{4, nil}}},
		},
		{
			name: "handler-fault",
			got: func() any {
				return g.call(t, in, "handler", "handle-event", []any{cv{unknownKind, nil}, uint64(0), "bad"}, []any{false, "{}"})
			},
			want: cv{1, cv{0, "bad"}},
		},
		{
			name: "build-request",
			got: func() any {
				return g.call(t, in, "provider", "build-request", []any{"example", "m-1", "{}"}, []any{true})
			},
			want: cv{0, []any{
				cv{1, nil},
				[]any{cv{0, "https://example.test/"}, cv{0, "m-1"}},
				[]any{
					[]any{"authorization", []any{cv{0, "Bearer "}, cv{1, []any{"api-key"}}}},
					[]any{"x-empty", []any{}},
				},
				[]byte("{}"),
			}},
		},
		{
			name: "build-request-fault",
			got: func() any {
				return g.call(t, in, "provider", "build-request", []any{"other", "m", ""}, []any{false})
			},
			want: cv{1, cv{2, "other"}},
		},
		{
			name: "classify-failure-record-of-options",
			got: func() any {
				return g.call(t, in, "provider", "classify-failure", []byte("overloaded"),
					[]any{"example", uint16(429), []any{[]any{"request-id", "r1"}, []any{"retry-after-ms", "250"}}})
			},
			want: []any{cv{3, nil}, "overloaded", true, cv{1, uint64(250)}, cv{1, uint16(429)}, none(), cv{1, "example"}, cv{1, "250"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.got()
			if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", tt.want) {
				t.Errorf("result:\n got %#v\nwant %#v", got, tt.want)
			}
			calls := g.host.take()
			if fmt.Sprint(calls) != fmt.Sprint(tt.imported) {
				t.Errorf("imports:\n got %q\nwant %q", calls, tt.imported)
			}
		})
	}
}

// TestRustGuestAbortsOnMalformedHostData hands the guest an out-of-range
// discriminant: it must abort with a message naming the function, the
// type and the value, not read garbage.
func TestRustGuestAbortsOnMalformedHostData(t *testing.T) {
	g := startGuest(t, 0)
	in := g.acquire(t)
	defer in.Release()
	wi, _ := findFunc(t, g.m, "tool", "invoke-tool")
	err := in.Invoke(context.Background(), wi.qualified+"#invoke-tool", func(c *wasmhost.Call, params []uint64) error {
		mm := mem{c}
		rest, err := mm.lower(paramTypes(wi.funcs[0])[0], []any{"", "read", "corrupt"}, params)
		if err != nil {
			return err
		}
		_, err = mm.lower(paramTypes(wi.funcs[0])[1], []any{uint32(0), "/"}, rest)
		return err
	}, nil)
	if err == nil {
		t.Fatal("invoke-tool succeeded on a malformed read-file result; want the guest to abort")
	}
	const want = "smith_plugin: fs.read-file: discriminant 9 of fs.file-fault is out of range (6 cases)"
	if !strings.Contains(g.log.String(), want) {
		t.Errorf("guest output %q lacks %q", g.log.String(), want)
	}
}

// TestRustGuestResource drives the provider's exported decoder resource:
// the constructor creates the value and its handle through
// [resource-new], methods reach the value by its rep, the dtor drops it.
func TestRustGuestResource(t *testing.T) {
	g := startGuest(t, 0)
	in := g.acquire(t)
	defer in.Release()
	const maxU64 = ^uint64(0)
	handle := g.call(t, in, "provider", "[constructor]decoder", []any{"example", uint16(200), "text/event-stream"})
	rep, ok := g.host.handles[handle.(uint32)]
	if !ok {
		t.Fatalf("constructor returned %v; want a handle from [resource-new] (have %v)", handle, g.host.handles)
	}
	steps := []struct {
		name   string
		method string
		chunk  []byte
		want   any
	}{
		{name: "one-event", method: "decode-chunk", chunk: []byte("a\nb"), want: cv{0, []any{cv{1, []any{uint32(0), "a"}}}}},
		{name: "two-events", method: "decode-chunk", chunk: []byte("c\n\n"), want: cv{0, []any{cv{1, []any{uint32(0), "bc"}}, cv{1, []any{uint32(1), ""}}}}},
		{name: "fault", method: "decode-chunk", chunk: []byte("bad"), want: cv{1, cv{1, "example 200"}}},
		{name: "none()", method: "decode-chunk", chunk: []byte("tail"), want: cv{0, []any{}}},
		{name: "finish", method: "finish", want: cv{0, []any{
			cv{5, []any{uint32(9), none(), cv{1, []byte("tail")}, true}},
			cv{6, []any{cv{1, uint64(4)}, none(), cv{1, maxU64}, none(), cv{1, uint64(0)}}},
			cv{7, []any{cv{1, nil}, cv{1, "tool_use"}, none()}},
		}}},
	}
	for _, s := range steps {
		args := []any{rep}
		if s.chunk != nil {
			args = append(args, s.chunk)
		}
		got := g.call(t, in, "provider", "[method]decoder."+s.method, args...)
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", s.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", s.name, got, s.want)
		}
	}
	err := in.Invoke(context.Background(), "smith:plugin/provider@0.0.0#[dtor]decoder", func(_ *wasmhost.Call, params []uint64) error {
		params[0] = uint64(rep)
		return nil
	}, nil)
	if err != nil {
		t.Fatalf("dtor: %v\n%s", err, g.log.String())
	}
}

func none() any { return cv{0, nil} }

// TestRustGuestFreesMemory checks that the guest frees what the host
// placed (taken-over arguments, import results, lists it copied out of),
// what it allocated to pass a list to an import, and what it kept for the
// host after cabi_post: with RecycleBytes at
// 4 MiB, an instance that leaked any of the ~40 MiB these calls move
// would be destroyed on Release instead of returning to the pool.
func TestRustGuestFreesMemory(t *testing.T) {
	g := startGuest(t, 4<<20)
	big := strings.Repeat("p", 32<<10)
	for range 2 {
		in := g.acquire(t)
		for range 100 {
			out := g.call(t, in, "tool", "invoke-tool", []any{"", "image", big}, []any{uint32(0), "/"})
			if img := out.(cv).Val.([]any)[0].([]any)[0].(cv).Val.([]any)[1].([]byte); len(img) != len(big) {
				t.Fatalf("image of %d bytes; want %d", len(img), len(big))
			}
			g.call(t, in, "tool", "invoke-tool", []any{"", "read", "large"}, []any{uint32(0), "/"})
			g.call(t, in, "tool", "invoke-tool", []any{"", "edit-many", "2000"}, []any{uint32(0), "/"})
			found := g.call(t, in, "tool", "invoke-tool", []any{"", "find", "large"}, []any{uint32(0), "/"})
			if n := len(found.(cv).Val.([]any)[0].([]any)); n != 2000 {
				t.Fatalf("find returned %d content blocks; want 2000", n)
			}
		}
		g.host.take()
		in.Release()
		if n := g.gen.Idle("rustguest"); n != 1 {
			t.Fatalf("after 300 calls moving 64 KiB each the instance was not pooled (idle %d): its memory grew past 4 MiB, so the guest leaks", n)
		}
	}
}

// TestRustBindingsNative compiles the test guest natively as a test
// binary and runs its unit tests: a plugin's pure code must be testable
// with `rustc --test` with the bindings included (imports then panic).
func TestRustBindingsNative(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "rustguest-test")
	runRustc(t, ".", "--edition", "2021", "--test", "--crate-name", "rustguest", "-o", bin, "testdata/rustguest/src/lib.rs")
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	if !strings.Contains(string(out), "test result: ok.") || strings.Contains(string(out), "0 passed") {
		t.Fatalf("native tests did not run:\n%s", out)
	}
}

// TestRustBindingsCompileWarningFree compiles a crate holding only the
// generated bindings for wasm32-wasi: no warnings although nothing is
// used, and no import of any interface, since unused imports must cost
// nothing (the host refuses imports of ungranted capabilities).
func TestRustBindingsCompileWarningFree(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	bindings, err := filepath.Abs(filepath.Join(repoRoot, "wit", "rust", "smith_plugin.rs"))
	if err != nil {
		t.Fatal(err)
	}
	lib := fmt.Sprintf("#[path = %q]\nmod smith_plugin;\n", bindings)
	if err := os.WriteFile(filepath.Join(src, "lib.rs"), []byte(lib), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "bare.wasm")
	runRustc(t, dir, "--edition", "2021", "--crate-type", "cdylib", "--crate-name", "bare", "--target", "wasm32-wasi",
		"-C", "opt-level=s", "-C", "panic=abort", "-C", "lto=fat", "-o", out, "src/lib.rs")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("smith:plugin/")) {
		t.Errorf("a crate calling no import imports from smith:plugin; unused imports must vanish")
	}
	if !bytes.Contains(b, []byte("cabi_realloc")) {
		t.Errorf("cabi_realloc is not exported")
	}
}

// lastCase is the discriminant of the last case of enum name in m (the
// `unknown` catch-all of the world's enums).
func lastCase(t *testing.T, m *model, name string) int {
	t.Helper()
	for _, in := range m.ifaces {
		for _, td := range in.types {
			if e, ok := td.Kind.(*wit.Enum); ok && td.Name != nil && *td.Name == name {
				return len(e.Cases) - 1
			}
		}
	}
	t.Fatalf("no enum %s in the world", name)
	return 0
}
