package plugin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// TestTools runs every tool through the real wasm plugin on a real
// temporary project, each call journaled.
func TestTools(t *testing.T) {
	g := shared(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("top secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		setup   func(t *testing.T, w *bench)
		tool    string
		args    string
		argsf   func(w *bench) string // args computed from the bench, when set
		eff     Effects               // the binding's configuration
		isError bool
		want    []string // substrings of the output
		exact   string   // the whole output, when set
		not     []string // substrings the output must not have
		mut     model.Mutation
		effects int // journaled intents; -1 means do not check
		after   func(t *testing.T, w *bench)
	}{
		{name: "read/whole-file", setup: func(t *testing.T, w *bench) { w.write(t, "a.txt", "alpha\nbeta\n") },
			tool: "read", args: `{"path":"a.txt"}`, exact: "alpha\nbeta\n", mut: model.MutationApplied, effects: 1},
		{name: "read/window-with-continuation", setup: func(t *testing.T, w *bench) { w.write(t, "n.txt", numbered(100)) },
			tool: "read", args: `{"path":"n.txt","offset":10,"limit":3}`,
			exact: "line 10\nline 11\nline 12\n[showing lines 10-12 of 100; read again with offset=13 to continue]", mut: model.MutationApplied, effects: 1},
		{name: "read/tail-window-no-notice", setup: func(t *testing.T, w *bench) { w.write(t, "n.txt", numbered(5)) },
			tool: "read", args: `{"path":"n.txt","offset":4}`, exact: "line 4\nline 5\n", mut: model.MutationApplied, effects: 1},
		{name: "read/default-bound-2000-lines", setup: func(t *testing.T, w *bench) { w.write(t, "big.txt", numbered(2500)) },
			tool: "read", args: `{"path":"big.txt"}`, want: []string{"line 2000\n[showing lines 1-2000 of 2500; read again with offset=2001 to continue]"}, not: []string{"line 2001"}, mut: model.MutationApplied, effects: 1},
		{name: "read/byte-bound", setup: func(t *testing.T, w *bench) {
			w.write(t, "wide.txt", strings.Repeat(strings.Repeat("x", 999)+"\n", 100))
		},
			tool: "read", args: `{"path":"wide.txt"}`, want: []string{"[showing lines 1-51 of 100; read again with offset=52 to continue]"}, mut: model.MutationApplied, effects: 1},
		{name: "read/output-limit-notice", eff: Effects{OutputLimit: 300}, setup: func(t *testing.T, w *bench) { w.write(t, "n.txt", numbered(100)) },
			tool: "read", args: `{"path":"n.txt"}`, want: []string{"line 1\n", "line 27\n[output truncated: 792 bytes exceed the 300-byte tool output limit; narrow the request]"}, not: []string{"line 28", "line 100"}, mut: model.MutationApplied, effects: 1},
		{name: "read/offset-past-end", setup: func(t *testing.T, w *bench) { w.write(t, "n.txt", numbered(5)) },
			tool: "read", args: `{"path":"n.txt","offset":9}`, isError: true, want: []string{"offset 9 is beyond the end of the file (5 lines); use an offset from 1 to 5"}, mut: model.MutationNotApplied, effects: 1},
		{name: "read/binary-refused", setup: func(t *testing.T, w *bench) { w.write(t, "b.bin", "PNG\x00\x01\x02") },
			tool: "read", args: `{"path":"b.bin"}`, isError: true, want: []string{`read "b.bin": binary content`}, mut: model.MutationNotApplied, effects: 1},
		{name: "read/missing", tool: "read", args: `{"path":"nope.txt"}`, isError: true,
			want: []string{`read "nope.txt": no such file or directory; check the path with ls or find`}, mut: model.MutationNotApplied, effects: 1},
		{name: "read/dotdot-escape", tool: "read", argsf: func(w *bench) string { return fmt.Sprintf(`{"path":%q}`, rel(w.root, outside)+"/secret.txt") }, isError: true,
			want: []string{"access denied"}, not: []string{"top secret"}, mut: model.MutationNotApplied, effects: 1},
		{name: "read/absolute-outside", tool: "read", args: fmt.Sprintf(`{"path":%q}`, filepath.Join(outside, "secret.txt")), isError: true,
			want: []string{"access denied"}, not: []string{"top secret"}, mut: model.MutationNotApplied, effects: 1},
		{name: "read/symlink-escape", setup: func(t *testing.T, w *bench) {
			if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(w.root, "link.txt")); err != nil {
				t.Fatal(err)
			}
		}, tool: "read", args: `{"path":"link.txt"}`, isError: true, want: []string{"access denied"}, not: []string{"top secret"}, mut: model.MutationNotApplied, effects: 1},

		{name: "write/creates-parents", tool: "write", args: `{"path":"deep/er/new.txt","content":"héllo\n"}`,
			exact: "Wrote 7 bytes to deep/er/new.txt.", mut: model.MutationApplied, effects: 1,
			after: func(t *testing.T, w *bench) {
				if got := w.read(t, "deep/er/new.txt"); got != "héllo\n" {
					t.Errorf("file = %q", got)
				}
			}},
		{name: "write/replaces-atomically", setup: func(t *testing.T, w *bench) { w.write(t, "r.txt", "old content that is long\n") },
			tool: "write", args: `{"path":"r.txt","content":"new\n"}`, exact: "Wrote 4 bytes to r.txt.", mut: model.MutationApplied, effects: 1,
			after: func(t *testing.T, w *bench) {
				if got := w.read(t, "r.txt"); got != "new\n" {
					t.Errorf("file = %q", got)
				}
				ents, _ := os.ReadDir(w.root)
				if len(ents) != 1 {
					t.Errorf("directory holds %d entries after the write; want only r.txt (no temporary left)", len(ents))
				}
			}},
		{name: "write/symlinked-dir-escape", setup: func(t *testing.T, w *bench) {
			if err := os.Symlink(outside, filepath.Join(w.root, "out")); err != nil {
				t.Fatal(err)
			}
		}, tool: "write", args: `{"path":"out/pwned.txt","content":"x"}`, isError: true, want: []string{"access denied"}, mut: model.MutationNotApplied, effects: 1,
			after: func(t *testing.T, w *bench) {
				if _, err := os.Stat(filepath.Join(outside, "pwned.txt")); err == nil {
					t.Error("the write escaped through the symbolic link")
				}
			}},

		{name: "edit/exact-replacement", setup: func(t *testing.T, w *bench) { w.write(t, "e.go", "package e\n\nfunc F() int { return 1 }\n") },
			tool: "edit", args: `{"path":"e.go","old_text":"return 1","new_text":"return 2"}`,
			want: []string{"Edited e.go at line 3.", "-func F() int { return 1 }", "+func F() int { return 2 }"}, mut: model.MutationApplied, effects: 1,
			after: func(t *testing.T, w *bench) {
				if got := w.read(t, "e.go"); got != "package e\n\nfunc F() int { return 2 }\n" {
					t.Errorf("file = %q", got)
				}
			}},
		{name: "edit/missing-match", setup: func(t *testing.T, w *bench) { w.write(t, "e.txt", "one\ntwo\n") },
			tool: "edit", args: `{"path":"e.txt","old_text":"three","new_text":"3"}`, isError: true,
			want: []string{"the text to replace was not found; read the file and quote the text exactly"}, mut: model.MutationNotApplied, effects: 1,
			after: func(t *testing.T, w *bench) {
				if got := w.read(t, "e.txt"); got != "one\ntwo\n" {
					t.Errorf("file changed to %q", got)
				}
			}},
		{name: "edit/ambiguous-match", setup: func(t *testing.T, w *bench) { w.write(t, "e.txt", "x = 1\ny = 1\n") },
			tool: "edit", args: `{"path":"e.txt","old_text":"= 1","new_text":"= 2"}`, isError: true,
			want: []string{"occurs 2 times; include more surrounding lines"}, mut: model.MutationNotApplied, effects: 1,
			after: func(t *testing.T, w *bench) {
				if got := w.read(t, "e.txt"); got != "x = 1\ny = 1\n" {
					t.Errorf("file changed to %q", got)
				}
			}},
		{name: "edit/stale-input", setup: func(t *testing.T, w *bench) {
			w.write(t, "s.txt", "v1\n")
			if res, out, err := w.call(context.Background(), t, "read", `{"path":"s.txt"}`); err != nil || res.IsError {
				t.Fatalf("read = %q, %v", out, err)
			}
			w.write(t, "s.txt", "v1\nchanged behind the agent's back\n")
		}, tool: "edit", args: `{"path":"s.txt","old_text":"v1","new_text":"v2"}`, isError: true,
			want: []string{"changed since it was last read; read it again"}, mut: model.MutationNotApplied, effects: 1,
			after: func(t *testing.T, w *bench) {
				if got := w.read(t, "s.txt"); got != "v1\nchanged behind the agent's back\n" {
					t.Errorf("stale edit changed the file to %q", got)
				}
			}},
		{name: "edit/several-replacements", setup: func(t *testing.T, w *bench) { w.write(t, "m.txt", "alpha\nbeta\ngamma\n") },
			tool: "edit", args: `{"path":"m.txt","edits":[{"old_text":"gamma","new_text":"GAMMA"},{"old_text":"alpha","new_text":"ALPHA"}]}`,
			want: []string{"Edited m.txt (2 replacements) at line 1.", "-alpha", "+ALPHA", "-gamma", "+GAMMA"}, mut: model.MutationApplied, effects: 1,
			after: func(t *testing.T, w *bench) {
				if got := w.read(t, "m.txt"); got != "ALPHA\nbeta\nGAMMA\n" {
					t.Errorf("file = %q", got)
				}
			}},
		{name: "edit/several-one-missing-changes-nothing", setup: func(t *testing.T, w *bench) { w.write(t, "m.txt", "alpha\nbeta\n") },
			tool: "edit", args: `{"path":"m.txt","edits":[{"old_text":"alpha","new_text":"ALPHA"},{"old_text":"delta","new_text":"DELTA"}]}`, isError: true,
			want: []string{"edit 2: the text to replace was not found"}, mut: model.MutationNotApplied, effects: 1,
			after: func(t *testing.T, w *bench) {
				if got := w.read(t, "m.txt"); got != "alpha\nbeta\n" {
					t.Errorf("a refused multi-edit changed the file to %q", got)
				}
			}},
		{name: "edit/several-overlapping", setup: func(t *testing.T, w *bench) { w.write(t, "m.txt", "alpha beta\n") },
			tool: "edit", args: `{"path":"m.txt","edits":[{"old_text":"alpha beta","new_text":"x"},{"old_text":"beta","new_text":"y"}]}`, isError: true,
			want: []string{"overlap; merge them into one"}, mut: model.MutationNotApplied, effects: 1},
		{name: "edit/both-forms", tool: "edit", args: `{"path":"m.txt","old_text":"a","new_text":"b","edits":[{"old_text":"c","new_text":"d"}]}`, isError: true,
			want: []string{"pass either old_text with new_text (one replacement) or edits (several), not both"}, mut: model.MutationNotApplied, effects: 0},
		{name: "edit/identical-texts", setup: func(t *testing.T, w *bench) { w.write(t, "e.txt", "a\n") },
			tool: "edit", args: `{"path":"e.txt","old_text":"a","new_text":"a"}`, isError: true,
			want: []string{"old_text and new_text are identical"}, mut: model.MutationNotApplied, effects: 0},
		{name: "edit/escape", tool: "edit", args: fmt.Sprintf(`{"path":%q,"old_text":"top","new_text":"bottom"}`, filepath.Join(outside, "secret.txt")),
			isError: true, want: []string{"access denied"}, mut: model.MutationNotApplied, effects: 1},

		{name: "find/respects-gitignore-sorted", setup: func(t *testing.T, w *bench) {
			w.write(t, ".gitignore", "build/\n*.log\n")
			w.write(t, "z.go", "")
			w.write(t, "a/b.go", "")
			w.write(t, "build/gen.go", "")
			w.write(t, "debug.log", "")
		}, tool: "find", args: `{"pattern":"**/*"}`, exact: ".gitignore\na/\na/b.go\nz.go", mut: model.MutationApplied, effects: 1},
		{name: "find/configured-ignores", eff: Effects{Ignore: []string{"*.tmp", "cache/"}}, setup: func(t *testing.T, w *bench) {
			w.write(t, "keep.go", "")
			w.write(t, "scratch.tmp", "")
			w.write(t, "cache/c.go", "")
		}, tool: "find", args: `{"pattern":"**/*"}`, exact: "keep.go", mut: model.MutationApplied, effects: 1},
		{name: "grep/configured-ignores", eff: Effects{Ignore: []string{"gen/"}}, setup: func(t *testing.T, w *bench) {
			w.write(t, "a.go", "needle\n")
			w.write(t, "gen/b.go", "needle\n")
		}, tool: "grep", args: `{"pattern":"needle"}`, exact: "a.go:1: needle", mut: model.MutationApplied, effects: 1},
		{name: "find/include-ignored", setup: func(t *testing.T, w *bench) {
			w.write(t, ".gitignore", "build/\n")
			w.write(t, "build/gen.go", "")
		}, tool: "find", args: `{"pattern":"**/*.go","include_ignored":true}`, exact: "build/gen.go", mut: model.MutationApplied, effects: 1},
		{name: "find/limit-notice", setup: func(t *testing.T, w *bench) {
			for i := range 5 {
				w.write(t, fmt.Sprintf("f%d.txt", i), "")
			}
		}, tool: "find", args: `{"pattern":"*.txt","limit":2}`, exact: "f0.txt\nf1.txt\n[results truncated: showing the first 2 paths; more exist — narrow the pattern or raise limit]", mut: model.MutationApplied, effects: 1},
		{name: "find/bad-glob", tool: "find", args: `{"pattern":"[a"}`, isError: true, want: []string{"not a valid glob"}, mut: model.MutationNotApplied, effects: 1},

		{name: "grep/respects-gitignore", setup: func(t *testing.T, w *bench) {
			w.write(t, ".gitignore", "vendor/\n")
			w.write(t, "main.go", "package main\n// TODO: fix\n")
			w.write(t, "vendor/x.go", "// TODO: ignored\n")
			w.write(t, "a/b.go", "x\n// TODO: also\n")
		}, tool: "grep", args: `{"pattern":"TODO"}`, exact: "a/b.go:2: // TODO: also\nmain.go:2: // TODO: fix", mut: model.MutationApplied, effects: 1},
		{name: "grep/literal-ignore-case-glob", setup: func(t *testing.T, w *bench) {
			w.write(t, "a.txt", "Foo(x)\n")
			w.write(t, "a.md", "foo(x)\n")
		}, tool: "grep", args: `{"pattern":"foo(","literal":true,"ignore_case":true,"glob":"*.txt"}`, exact: "a.txt:1: Foo(x)", mut: model.MutationApplied, effects: 1},
		{name: "grep/limit-notice", setup: func(t *testing.T, w *bench) { w.write(t, "m.txt", "hit\nhit\nhit\n") },
			tool: "grep", args: `{"pattern":"hit","limit":2}`, want: []string{"m.txt:1: hit\nm.txt:2: hit\n[results truncated: showing the first 2 matches"}, mut: model.MutationApplied, effects: 1},
		{name: "grep/no-match", setup: func(t *testing.T, w *bench) { w.write(t, "m.txt", "x\n") },
			tool: "grep", args: `{"pattern":"absent"}`, exact: "[no lines match absent under .]", mut: model.MutationApplied, effects: 1},

		{name: "ls/sorted-with-kinds", setup: func(t *testing.T, w *bench) {
			w.write(t, "b.txt", "")
			w.write(t, "a/x", "")
			if err := os.Symlink("b.txt", filepath.Join(w.root, "c")); err != nil {
				t.Fatal(err)
			}
		}, tool: "ls", args: `{}`, exact: "a/\nb.txt\nc@", mut: model.MutationApplied, effects: 1},
		{name: "ls/limit-notice", setup: func(t *testing.T, w *bench) {
			for i := range 4 {
				w.write(t, fmt.Sprintf("f%d", i), "")
			}
		}, tool: "ls", args: `{"limit":3}`, exact: "f0\nf1\nf2\n[results truncated: showing the first 3 entries; more exist — list a subdirectory or raise limit]", mut: model.MutationApplied, effects: 1},
		{name: "ls/escape", tool: "ls", args: `{"path":".."}`, isError: true, want: []string{"access denied"}, mut: model.MutationNotApplied, effects: 1},

		{name: "bash/exit-zero", tool: "bash", args: `{"command":"echo hello; echo err >&2"}`, want: []string{"hello\n", "err\n", "[exit code 0]"}, mut: model.MutationApplied, effects: 1},
		{name: "bash/exit-status", tool: "bash", args: `{"command":"echo failing; exit 3"}`, isError: true, exact: "failing\n[exit code 3]", mut: model.MutationApplied, effects: 1},
		{name: "bash/cwd", setup: func(t *testing.T, w *bench) { w.write(t, "sub/marker", "") },
			tool: "bash", args: `{"command":"ls","cwd":"sub"}`, exact: "marker\n[exit code 0]", mut: model.MutationApplied, effects: 1},
		{name: "bash/cwd-outside-roots", tool: "bash", args: fmt.Sprintf(`{"command":"cat secret.txt","cwd":%q}`, outside), isError: true,
			want: []string{"bash: the command could not be started"}, not: []string{"top secret"}, mut: model.MutationNotApplied, effects: 1},
		{name: "bash/output-truncated-keeps-tail", tool: "bash", args: `{"command":"i=0; while [ $i -lt 3000 ]; do echo line-$i-padding-padding-padding; i=$((i+1)); done; echo THE-END"}`,
			want: []string{"truncated", "line-2999-padding", "THE-END\n[exit code 0]"}, not: []string{"line-0-padding"}, mut: model.MutationApplied, effects: 1},
		{name: "bash/output-right-after-exit", tool: "bash", args: `{"command":"printf 'a%.0s' $(seq 1 2000); echo; echo last-line"}`,
			want: []string{"last-line\n[exit code 0]"}, mut: model.MutationApplied, effects: 1},

		{name: "schema/missing-required", tool: "read", args: `{}`, isError: true, want: []string{"invalid arguments for read", "path"}, mut: model.MutationNotApplied, effects: 0},
		{name: "schema/wrong-type", tool: "write", args: `{"path":"x.txt","content":7}`, isError: true, want: []string{"invalid arguments for write", "content"}, mut: model.MutationNotApplied, effects: 0,
			after: func(t *testing.T, w *bench) {
				if _, err := os.Stat(filepath.Join(w.root, "x.txt")); err == nil {
					t.Error("a call with invalid arguments wrote the file")
				}
			}},
		{name: "schema/unknown-property", tool: "bash", args: `{"command":"touch made","shell":"zsh"}`, isError: true, want: []string{"invalid arguments for bash", "shell"}, mut: model.MutationNotApplied, effects: 0,
			after: func(t *testing.T, w *bench) {
				if _, err := os.Stat(filepath.Join(w.root, "made")); err == nil {
					t.Error("a call with invalid arguments ran the command")
				}
			}},
		{name: "schema/out-of-range", tool: "read", args: `{"path":"a","offset":0}`, isError: true, want: []string{"invalid arguments for read", "offset"}, mut: model.MutationNotApplied, effects: 0},
		{name: "schema/not-an-object", tool: "ls", args: `[]`, isError: true, want: []string{"invalid arguments for ls"}, mut: model.MutationNotApplied, effects: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newBench(t, g, tt.eff)
			if tt.setup != nil {
				tt.setup(t, w)
			}
			args := tt.args
			if tt.argsf != nil {
				args = tt.argsf(w)
			}
			before, _ := w.store.Records(context.Background())
			res, out, err := w.call(context.Background(), t, tt.tool, args)
			if err != nil {
				t.Fatalf("Execute error: %v (output %q)", err, out)
			}
			if res.IsError != tt.isError {
				t.Errorf("IsError = %v; want %v (output %s)", res.IsError, tt.isError, short(out))
			}
			if tt.exact != "" && out != tt.exact {
				t.Errorf("output = %s\nwant     %q", short(out), tt.exact)
			}
			for _, s := range tt.want {
				if !strings.Contains(out, s) {
					t.Errorf("output %s lacks %q", short(out), s)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(out, s) {
					t.Errorf("output %s has %q", short(out), s)
				}
			}
			if res.Mutation != tt.mut {
				t.Errorf("Mutation = %q; want %q", res.Mutation, tt.mut)
			}
			after, _ := w.store.Records(context.Background())
			if n := (len(after) - len(before)) / 2; tt.effects >= 0 && (n != tt.effects || (len(after)-len(before))%2 != 0) {
				t.Errorf("the call journaled %d records; want %d effects (intent + completion each)", len(after)-len(before), tt.effects)
			}
			if tt.after != nil {
				tt.after(t, w)
			}
		})
	}
}

// short quotes s, eliding its middle when long.
func short(s string) string {
	if len(s) <= 600 {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q ... (%d bytes) ... %q", s[:300], len(s), s[len(s)-300:])
}

func rel(from, to string) string {
	r, err := filepath.Rel(from, to)
	if err != nil {
		panic(err)
	}
	return r
}
