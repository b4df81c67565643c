package tools_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/wasmhost"
)

// built is the plugin as tools/pluginbuild builds it, loaded once per test
// process into a real host.
var built struct {
	once sync.Once
	dir  string
	wasm []byte
	host *plugin.Host
	gen  *plugin.Generation
	err  error
}

// closeShared releases what the tests shared.
func closeShared(ctx context.Context) {
	if built.gen != nil {
		built.gen.Close()
	}
	if built.host != nil {
		built.host.Close(ctx)
	}
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// generation builds the crate with tools/pluginbuild (instrumented, as it
// is embedded) and returns the generation serving it as "tools".
func generation(tb testing.TB) *plugin.Generation {
	tb.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "tools-plugin-"); built.err != nil {
			return
		}
		src, err := filepath.Abs(".")
		if err != nil {
			built.err = err
			return
		}
		cmd := exec.Command("go", "run", "github.com/smith-agent/smith/tools/pluginbuild", "-out", built.dir, src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			built.err = errors.New("go run tools/pluginbuild " + src + ": " + err.Error() + "\n" + string(msg) + "\n(run scripts/deps.sh if rustc is missing)")
			return
		}
		if built.wasm, built.err = os.ReadFile(filepath.Join(built.dir, "tools.wasm")); built.err != nil {
			return
		}
		ctx := context.Background()
		if built.host, built.err = plugin.Open(ctx, plugin.Config{CacheDir: filepath.Join(built.dir, "cache")}); built.err != nil {
			return
		}
		sum := sha256.Sum256(built.wasm)
		built.gen, built.err = built.host.Load(ctx, []plugin.Artifact{{Name: "tools", Wasm: built.wasm, SHA256: hex.EncodeToString(sum[:]),
			Grants: []string{"fs", "process"}, Instrumented: wasmhost.InstrumentationVersion()}})
	})
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.gen
}

// project is a binding of the plugin's tools to a temporary project
// directory with an in-memory journal.
type project struct {
	root  string
	tools map[string]agent.Tool
}

func newProject(tb testing.TB, e plugin.Effects) *project {
	tb.Helper()
	root := tb.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	j, _, err := effect.Open(context.Background(), &effect.MemStore{}, effect.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	e.Journal, e.Roots = j, []string{root}
	b, err := generation(tb).Bind(e)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Close() })
	p := &project{root: root, tools: map[string]agent.Tool{}}
	for _, t := range b.Tools() {
		p.tools[t.Definition().Name] = t
	}
	return p
}

// call runs tool name with args and returns the result and its text.
func (p *project) call(tb testing.TB, name, args string) (agent.Result, string, error) {
	tb.Helper()
	t, ok := p.tools[name]
	if !ok {
		tb.Fatalf("no tool %q", name)
	}
	res, err := t.Execute(context.Background(), &agent.Call{ID: "call_1", Name: name, Arguments: json.RawMessage(args), Cwd: p.root})
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(model.Text); ok {
			text.WriteString(tc.Text)
		}
	}
	return res, text.String(), err
}

// TestCatalogGolden: the module declares the seven tools with the names,
// descriptions and schemas of testdata/catalog.golden, byte for byte
// (refresh with -update after changing src/catalog.rs).
func TestCatalogGolden(t *testing.T) {
	var b bytes.Buffer
	for _, d := range generation(t).Tools() {
		b.WriteString(d.Name + "\n" + d.Description + "\n" + string(d.Parameters) + "\n\n")
	}
	p := filepath.Join("testdata", "catalog.golden")
	if *update {
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("declarations differ from %s (go test -run TestCatalogGolden -update rewrites it):\n%s", p, b.Bytes())
	}
}

// TestInvoke runs calls through the real host whose answers depend on
// the plugin's own decoding, quoting and formatting.
func TestInvoke(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, p *project)
		eff     plugin.Effects
		tool    string
		args    string
		isError bool
		exact   string
	}{
		{name: "read/quoted-path", tool: "read", args: `{"path":"dir/\u00e9\u0001\"x"}`, isError: true,
			exact: `read "dir/é\x01\"x": no such file or directory; check the path with ls or find`},
		{name: "read/empty-file", setup: func(t *testing.T, p *project) { write(t, p, "e.txt", "") },
			tool: "read", args: `{"path":"e.txt"}`, exact: "[empty file]"},
		{name: "read/whole-number-offset", setup: func(t *testing.T, p *project) { write(t, p, "n.txt", "a\nb\nc\n") },
			tool: "read", args: `{"path":"n.txt","offset":2.0,"limit":1e0}`, exact: "b\n[showing lines 2-2 of 3; read again with offset=3 to continue]"},
		{name: "write/one-byte", tool: "write", args: `{"path":"w.txt","content":"x"}`, exact: "Wrote 1 byte to w.txt."},
		{name: "edit/nothing-to-replace", tool: "edit", args: `{"path":"a.txt"}`, isError: true,
			exact: "invalid arguments: edit: nothing to replace; pass old_text with new_text, or a non-empty edits list"},
		{name: "edit/element-incomplete", tool: "edit", args: `{"path":"a.txt","old_text":"a","new_text":"b","edits":[{"old_text":"x","new_text":"y"}]}`, isError: true,
			exact: "invalid arguments: edit: pass either old_text with new_text (one replacement) or edits (several), not both"},
		{name: "bash/relative-cwd-cleaned", setup: func(t *testing.T, p *project) { write(t, p, "sub/marker", "") },
			tool: "bash", args: `{"command":"pwd","cwd":"sub/../sub/."}`, exact: "<root>/sub\n[exit code 0]"},
		{name: "bash/signal", tool: "bash", args: `{"command":"printf partial; kill -9 $$"}`, isError: true, exact: "partial\n[killed by a signal]"},
		{name: "bash/invalid-utf8-output", tool: "bash", args: `{"command":"printf 'a\\377b'"}`, exact: "a\uFFFDb\n[exit code 0]"},
		{name: "read/invalid-utf8-argument", tool: "read", args: "{\"path\":\"\x8e\"}", isError: true,
			exact: "read \"\uFFFD\": no such file or directory; check the path with ls or find"},
		{name: "ls/invalid-utf8-name", setup: func(t *testing.T, p *project) { write(t, p, "n\xffm", "") },
			tool: "ls", args: `{}`, exact: "n\uFFFDm"},
		{name: "grep/invalid-utf8-line", setup: func(t *testing.T, p *project) { write(t, p, "g.txt", "x\xfe match\n") },
			tool: "grep", args: `{"pattern":"match"}`, exact: "g.txt:1: x\uFFFD match"},
		{name: "find/no-match", tool: "find", args: `{"pattern":"*.rs","path":"."}`, exact: "[no files match *.rs under .]"},
		{name: "ls/empty", tool: "ls", args: `{}`, exact: "[empty directory]"},
		{name: "grep/output-limit", eff: plugin.Effects{OutputLimit: 200}, setup: func(t *testing.T, p *project) {
			write(t, p, "m.txt", strings.Repeat("a match\n", 40))
		}, tool: "grep", args: `{"pattern":"match"}`, exact: grepLines(6) + "\n[output truncated: 710 bytes exceed the 200-byte tool output limit; narrow the request]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t, tt.eff)
			if tt.setup != nil {
				tt.setup(t, p)
			}
			res, out, err := p.call(t, tt.tool, tt.args)
			if err != nil {
				t.Fatalf("Execute: %v (output %q)", err, out)
			}
			if res.IsError != tt.isError {
				t.Errorf("IsError = %v; want %v (output %q)", res.IsError, tt.isError, out)
			}
			if want := strings.ReplaceAll(tt.exact, "<root>", p.root); out != want {
				t.Errorf("output = %q\nwant     %q", out, want)
			}
		})
	}
}

func write(t testing.TB, p *project, rel, content string) {
	t.Helper()
	f := filepath.Join(p.root, rel)
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// grepLines is grep's output for n lines "a match" in m.txt.
func grepLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString("m.txt:" + strconv.Itoa(i) + ": a match\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
