package plugin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/wasmhost"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// productArtifact is the product plugin as a system artifact named name,
// granted fs as smith/internal/sysplugins grants it.
func productArtifact(tb testing.TB, name string) Artifact {
	tb.Helper()
	build(tb)
	sum := sha256.Sum256(productWasm)
	return Artifact{Name: name, Wasm: productWasm, SHA256: hex.EncodeToString(sum[:]), Grants: []string{"fs"},
		Instrumented: wasmhost.InstrumentationVersion()}
}

// world is a temporary directory holding a project and a configuration
// directory, with a generation of the tools and product plugins bound to
// the project.
type world struct {
	base  string // symbolic links resolved
	store *effect.MemStore
	gen   *Generation
	b     *Binding
}

func newWorld(t testing.TB) *world {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	build(t)
	h, err := Open(ctx, Config{CacheDir: filepath.Join(buildDir, "cache")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(ctx) })
	g, err := h.Load(ctx, []Artifact{artifact(t, "tools"), productArtifact(t, "product")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	store := &effect.MemStore{}
	j, _, err := effect.Open(ctx, store, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(base, "repo"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := g.Bind(Effects{Journal: j, Roots: []string{filepath.Join(base, "repo")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return &world{base: base, store: store, gen: g, b: b}
}

// path is rel (slash-separated) under the world's base.
func (w *world) path(rel string) string { return filepath.Join(w.base, filepath.FromSlash(rel)) }

// write creates the file rel with content, and its directories.
func (w *world) write(t testing.TB, rel, content string) {
	t.Helper()
	p := w.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mkdir creates the directory rel.
func (w *world) mkdir(t testing.TB, rel string) {
	t.Helper()
	if err := os.MkdirAll(w.path(rel), 0o755); err != nil {
		t.Fatal(err)
	}
}

// facts are the facts of a session in rel, in the repository at root
// ("" for none), with the seven tools and the configuration directory
// config.
func (w *world) facts(cwd, root, config string) Facts {
	f := Facts{Cwd: w.path(cwd), OS: "linux", Arch: "amd64", Shell: "/bin/bash", Date: "2025-06-01",
		Model: ModelIdentity{Provider: "anthropic", Name: "claude-sonnet-4-5", DisplayName: "Claude Sonnet 4.5"},
		Tools: []string{"read", "write", "edit", "bash", "find", "grep", "ls"}}
	if root != "" {
		f.Repository = &Repository{Root: w.path(root), Branch: "main"}
	}
	if config != "" {
		f.ConfigDir = w.path(config)
	}
	return f
}

// TestSystemPromptGolden: the rendered system prompt, byte for byte, for a
// session in a repository's subdirectory with the seven tools and for one
// outside a repository with read-only tools (refresh with -update). No
// effect is recorded: the prompt reads nothing.
func TestSystemPromptGolden(t *testing.T) {
	w := newWorld(t)
	w.mkdir(t, "repo/.git")
	w.mkdir(t, "repo/app")
	ctx := context.Background()
	var out bytes.Buffer
	inRepo := w.facts("repo/app", "repo", "config")
	readOnly := w.facts("repo", "", "")
	readOnly.Tools = []string{"read", "find", "grep", "ls"}
	readOnly.Model = ModelIdentity{Provider: "local", Name: "qwen3"}
	for _, c := range []struct {
		name  string
		facts Facts
	}{{"seven tools, in a repository", inRepo}, {"read-only tools, outside a repository", readOnly}} {
		p, err := w.b.SystemPrompt(ctx, c.facts)
		if err != nil {
			t.Fatal(err)
		}
		p = strings.ReplaceAll(p, w.base, "$BASE")
		out.WriteString("=== " + c.name + " (" + itoa(len(p)) + " bytes with $BASE)\n" + p)
	}
	golden := filepath.Join("testdata", t.Name()+".golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("system prompts differ from %s (go test -run %s -update rewrites it):\n%s", golden, t.Name(), out.Bytes())
	}
	if recs, _ := w.store.Records(ctx); len(recs) != 0 {
		t.Errorf("rendering the system prompt recorded %d effects; it reads nothing", len(recs))
	}
}

// wantAddition is one expected context addition: its source (relative
// to the world's base), whether it was cut, and text it must hold.
type wantAddition struct {
	source string
	cut    bool
	text   []string
}

// TestContext: the project-instructions transform over real files: the
// levels from the repository root down, CLAUDE.md only where a directory
// has no AGENTS.md, the user's own file last, cuts with a visible note,
// missing files skipped and failed reads turned into notes.
func TestContext(t *testing.T) {
	long := strings.Repeat(strings.Repeat("r", 99)+"\n", 400) // 40,000 bytes
	tests := []struct {
		name              string
		setup             func(t *testing.T, w *world)
		cwd, root, config string
		want              []wantAddition
		reads             int // fs.read effects recorded
	}{
		{
			name: "levels",
			setup: func(t *testing.T, w *world) {
				w.mkdir(t, "repo/.git")
				w.write(t, "repo/AGENTS.md", "Run make test.\n")
				w.write(t, "repo/app/CLAUDE.md", "The app uses tabs.\n")
				w.write(t, "repo/app/cmd/AGENTS.md", "Commands live here.\n")
				w.write(t, "repo/app/cmd/CLAUDE.md", "never read: AGENTS.md is there\n")
				w.write(t, "AGENTS.md", "above the repository: never read\n")
				w.write(t, "config/AGENTS.md", "I like short answers.\n")
			},
			cwd: "repo/app/cmd", root: "repo", config: "config",
			want: []wantAddition{
				{source: "repo/AGENTS.md", text: []string{"Instructions from $BASE/repo/AGENTS.md:\n\nRun make test.\n"}},
				{source: "repo/app/CLAUDE.md", text: []string{"Instructions from $BASE/repo/app/CLAUDE.md:\n\nThe app uses tabs.\n"}},
				{source: "repo/app/cmd/AGENTS.md", text: []string{"Commands live here.\n"}},
				{source: "config/AGENTS.md", text: []string{"The user's own instructions, from $BASE/config/AGENTS.md:\n\nI like short answers.\n"}},
			},
			reads: 5, // repo/app/AGENTS.md is looked for and missing
		},
		{
			name: "outside-a-repository",
			setup: func(t *testing.T, w *world) {
				w.write(t, "repo/AGENTS.md", "not a repository: never read\n")
				w.write(t, "repo/app/AGENTS.md", "app\n")
			},
			cwd: "repo/app", config: "config",
			want:  []wantAddition{{source: "repo/app/AGENTS.md", text: []string{"app\n"}}},
			reads: 1, // the configuration directory does not exist: nothing to read there
		},
		{
			name: "missing-files",
			setup: func(t *testing.T, w *world) {
				w.mkdir(t, "repo/.git")
				w.mkdir(t, "config")
			},
			cwd: "repo", root: "repo", config: "config",
			reads: 3, // AGENTS.md, CLAUDE.md and the user's AGENTS.md
		},
		{
			name:  "cut",
			setup: func(t *testing.T, w *world) { w.write(t, "repo/AGENTS.md", long) },
			cwd:   "repo", root: "repo",
			want:  []wantAddition{{source: "repo/AGENTS.md", cut: true, text: []string{"\n[Cut at 32 KiB; read $BASE/repo/AGENTS.md for the rest.]\n"}}},
			reads: 1,
		},
		{
			name: "unreadable",
			setup: func(t *testing.T, w *world) {
				w.write(t, "repo/AGENTS.md", "binary\x00data")
				w.write(t, "outside.md", "outside the allowed roots")
				w.mkdir(t, "repo/app")
				if err := os.Symlink(w.path("outside.md"), w.path("repo/app/AGENTS.md")); err != nil {
					t.Fatal(err)
				}
				w.mkdir(t, "config/AGENTS.md")
			},
			cwd: "repo/app", root: "repo", config: "config",
			want: []wantAddition{
				{source: "repo/AGENTS.md", text: []string{"[Smith could not read $BASE/repo/AGENTS.md: not UTF-8 text.]\n"}},
				{source: "repo/app/AGENTS.md", text: []string{"[Smith could not read $BASE/repo/app/AGENTS.md: permission denied.]\n"}},
				{source: "config/AGENTS.md", text: []string{"[Smith could not read $BASE/config/AGENTS.md: ", "is a directory"}},
			},
			reads: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			tt.setup(t, w)
			ctx := context.Background()
			got, err := w.b.Context(ctx, w.facts(tt.cwd, tt.root, tt.config))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d additions, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, a := range got {
				want := tt.want[i]
				text := strings.ReplaceAll(a.Text, w.base, "$BASE")
				if a.Source != w.path(want.source) || a.Cut != want.cut || a.Plugin != "product" || a.Transform != "project-instructions" {
					t.Errorf("addition %d = %s %s from %s, cut %v; want product project-instructions from %s, cut %v", i, a.Plugin, a.Transform, a.Source, a.Cut, want.source, want.cut)
				}
				for _, s := range want.text {
					if !strings.Contains(text, s) {
						t.Errorf("addition %d lacks %q:\n%s", i, s, tail(text))
					}
				}
			}
			checkReads(t, w, tt.reads)
		})
	}
}

// checkReads checks that the journal holds n fs.read effects of the
// context transform, each with its completion, and nothing else.
func checkReads(t *testing.T, w *world, n int) {
	t.Helper()
	recs, err := w.store.Records(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	intents, completions := 0, map[string]bool{}
	for _, r := range recs {
		switch r := r.(type) {
		case effect.Intent:
			intents++
			if r.Kind != "fs.read" || r.Parent != "context:project-instructions" || r.Generation != w.gen.ID() {
				t.Errorf("intent %s %s parent %q generation %d; want fs.read of context:project-instructions in generation %d", r.ID, r.Kind, r.Parent, r.Generation, w.gen.ID())
			}
		case effect.Completion:
			completions[r.ID] = true
		}
	}
	if intents != n || len(completions) != n {
		t.Errorf("journal holds %d intents and %d completions; want %d fs.read effects", intents, len(completions), n)
	}
}

// tail is the end of a long text, for failure messages.
func tail(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}

// TestContextWithinTheLimit: however many long files there are, the
// additions' texts stay within ContextLimit, and every file is named.
func TestContextWithinTheLimit(t *testing.T) {
	w := newWorld(t)
	w.mkdir(t, "repo/.git")
	big := strings.Repeat("z", 30000) + "\n"
	dirs := []string{"repo", "repo/a", "repo/a/b", "repo/a/b/c", "config"}
	for _, d := range dirs {
		w.write(t, d+"/AGENTS.md", big)
	}
	got, err := w.b.Context(context.Background(), w.facts("repo/a/b/c", "repo", "config"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	var cut []bool
	for i, a := range got {
		total += len(a.Text)
		cut = append(cut, a.Cut)
		if a.Source != w.path(dirs[i]+"/AGENTS.md") {
			t.Errorf("addition %d from %s, want %s", i, a.Source, dirs[i])
		}
	}
	if total > ContextLimit || !slices.Equal(cut, []bool{false, false, true, true, true}) {
		t.Errorf("additions take %d bytes (limit %d), cut %v; want the third cut and the last two left out", total, ContextLimit, cut)
	}
	if !strings.Contains(got[4].Text, "[Left out: the instructions reached their 64 KiB bound; read "+w.path("config/AGENTS.md")) {
		t.Errorf("the last addition does not say it was left out:\n%s", tail(got[4].Text))
	}
}

// TestScopeIsReadOnly: the fs imports of a prompt or context call refuse
// writes and edits before anything is touched or journaled, and the scope
// confines reads to the repository and the configuration directory.
func TestScopeIsReadOnly(t *testing.T) {
	w := newWorld(t)
	w.write(t, "repo/AGENTS.md", "x\n")
	w.write(t, "elsewhere/secret.txt", "no\n")
	w.mkdir(t, "config")
	s, err := w.b.openScope(w.facts("repo", "repo", "config"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	ctx := s.context(context.Background(), w.gen.ID(), "context:test")
	var d dispatcher
	_, werr := d.WriteFile(ctx, w.path("repo/new.txt"), "data", pluginabi.WriteOptions{CreateParents: true})
	_, eerr := d.EditFile(ctx, w.path("repo/AGENTS.md"), []pluginabi.TextEdit{{OldText: "x", NewText: "y"}}, pluginabi.EditOptions{})
	_, perr := d.RunProcess(ctx, pluginabi.Command{Line: "true"}, pluginabi.RunOptions{})
	for name, err := range map[string]error{"write": werr, "edit": eerr, "run": perr} {
		if err == nil {
			t.Errorf("%s in a read-only scope succeeded", name)
		}
	}
	if _, err := os.Stat(w.path("repo/new.txt")); !os.IsNotExist(err) {
		t.Errorf("the refused write created the file: %v", err)
	}
	if b, _ := os.ReadFile(w.path("repo/AGENTS.md")); string(b) != "x\n" {
		t.Errorf("the refused edit changed the file: %q", b)
	}
	if recs, _ := w.store.Records(context.Background()); len(recs) != 0 {
		t.Errorf("refused effects were journaled: %d records", len(recs))
	}
	_, err = d.ReadFile(ctx, w.path("elsewhere/secret.txt"), pluginabi.ReadOptions{ByteLimit: 100})
	var ff pluginabi.FileFault
	if !errors.As(err, &ff) || ff.Case != pluginabi.FileFaultPermissionDenied {
		t.Errorf("read outside the scope = %v; want permission-denied", err)
	}
	if txt, err := d.ReadFile(ctx, w.path("repo/AGENTS.md"), pluginabi.ReadOptions{ByteLimit: 100}); err != nil || txt.Text != "x\n" {
		t.Errorf("read inside the scope = %q, %v", txt.Text, err)
	}
}

// TestFactsRefused: facts the scope cannot be built from fail naming the
// field and the fix.
func TestFactsRefused(t *testing.T) {
	w := newWorld(t)
	w.mkdir(t, "repo/app")
	w.mkdir(t, "other")
	tests := []struct {
		name  string
		facts func() Facts
		want  string
	}{
		{name: "relative-cwd", facts: func() Facts { f := w.facts("repo", "", ""); f.Cwd = "repo"; return f },
			want: `Facts.Cwd "repo" is not absolute`},
		{name: "missing-cwd", facts: func() Facts { return w.facts("gone", "", "") }, want: "Facts.Cwd: lstat"},
		{name: "root-beside-cwd", facts: func() Facts { return w.facts("repo/app", "other", "") },
			want: "does not contain Facts.Cwd"},
		{name: "relative-config", facts: func() Facts { f := w.facts("repo", "", ""); f.ConfigDir = "config"; return f },
			want: `Facts.ConfigDir "config" is not absolute`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, call := range []func(Facts) error{
				func(f Facts) error { _, err := w.b.SystemPrompt(context.Background(), f); return err },
				func(f Facts) error { _, err := w.b.Context(context.Background(), f); return err },
			} {
				if err := call(tt.facts()); err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error %v; want one containing %q", err, tt.want)
				}
			}
		})
	}
}

// TestCommands: the generation lists the init command, and running it
// returns text for the user and the prompt the frontend submits.
func TestCommands(t *testing.T) {
	w := newWorld(t)
	cmds := w.gen.Commands()
	if len(cmds) != 1 || cmds[0].Name != "init" || cmds[0].Plugin != "product" || cmds[0].ArgumentHint == "" || !strings.Contains(cmds[0].Description, "AGENTS.md") {
		t.Fatalf("Commands() = %+v", cmds)
	}
	ctx := context.Background()
	tests := []struct {
		name, args string
		suffix     string
	}{
		{name: "no-arguments", args: "", suffix: "run the quick ones to check them."},
		{name: "focus", args: ` the "parser" `, suffix: "\n\nThe user adds: the \"parser\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := w.b.RunCommand(ctx, "init", tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Text, "AGENTS.md") || !strings.HasPrefix(res.Prompt, "Study this project and write AGENTS.md") || !strings.HasSuffix(res.Prompt, tt.suffix) {
				t.Errorf("init = text %q, prompt %q; want a prompt ending %q", res.Text, res.Prompt, tt.suffix)
			}
			var d map[string]string
			if err := json.Unmarshal(res.Details, &d); err != nil || d["prompt"] != res.Prompt {
				t.Errorf("details %s do not carry the prompt: %v", res.Details, err)
			}
		})
	}
	if _, err := w.b.RunCommand(ctx, "nope", ""); err == nil || !strings.Contains(err.Error(), `no command "nope" (commands: init)`) {
		t.Errorf("RunCommand(nope) = %v", err)
	}
	if recs, _ := w.store.Records(ctx); len(recs) != 0 {
		t.Errorf("init recorded %d effects; it performs none", len(recs))
	}
}

// TestUIContributions: the product plugin contributes the interactive
// mode's key bindings and theme.
func TestUIContributions(t *testing.T) {
	w := newWorld(t)
	keys := map[string][]string{}
	for _, b := range w.gen.KeyBindings() {
		if b.Plugin != "product" {
			t.Errorf("binding %+v from %q", b, b.Plugin)
		}
		keys[b.Action] = b.Keys
	}
	if strings.Join(keys["submit"], ",") != "enter" || strings.Join(keys["quit"], ",") != "ctrl+c" || len(keys) < 10 {
		t.Errorf("KeyBindings() = %v", keys)
	}
	theme := map[string]string{}
	for _, s := range w.gen.Theme() {
		theme[s.Role] = s.Style
	}
	if theme["error"] == "" || theme["accent"] == "" {
		t.Errorf("Theme() = %v", theme)
	}
	if lo, ok := w.gen.Layout(); !ok || lo.Plugin != "product" || lo.Prompt == "" || len(lo.StatusLeft) == 0 || len(lo.StatusRight) == 0 {
		t.Errorf("Layout() = %+v, %v", lo, ok)
	}
}

// TestWithoutProductPlugin: a generation without prompts or transforms
// renders no system prompt and adds no context.
func TestWithoutProductPlugin(t *testing.T) {
	g := shared(t)
	store := &effect.MemStore{}
	j, _, err := effect.Open(context.Background(), store, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	b, err := g.Bind(Effects{Journal: j, Roots: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	f := Facts{Cwd: dir}
	if p, err := b.SystemPrompt(context.Background(), f); p != "" || err != nil {
		t.Errorf("SystemPrompt = %q, %v; want none", p, err)
	}
	if a, err := b.Context(context.Background(), f); a != nil || err != nil {
		t.Errorf("Context = %v, %v; want none", a, err)
	}
	if c := g.Commands(); c != nil {
		t.Errorf("Commands = %v; want none", c)
	}
}

// TestDuplicatePromptRefused: two plugins declaring the same prompt,
// transform and command cannot load together; the error names both.
func TestDuplicatePromptRefused(t *testing.T) {
	h, err := Open(context.Background(), Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	g, err := h.Load(context.Background(), []Artifact{productArtifact(t, "product"), productArtifact(t, "product-copy")})
	if err == nil {
		g.Close()
		t.Fatal("Load accepted two system prompts")
	}
	if want := `prompt "system" is declared by both "product" and "product-copy"; disable one of the plugins`; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q", err, want)
	}
}
