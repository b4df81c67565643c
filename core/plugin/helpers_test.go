package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/wasmhost"
)

// toolsDir and productDir are the built-in tools and product plugins'
// sources, relative to this package; the tests build them with
// tools/pluginbuild, exactly as the embedded artifacts are built
// (instrumented for fuel).
const (
	toolsDir   = "../../plugins-src/tools"
	productDir = "../../plugins-src/product"
)

var (
	buildOnce   sync.Once
	buildDir    string
	toolsWasm   []byte
	productWasm []byte
	buildErr    error

	sharedOnce sync.Once
	sharedHost *Host
	sharedGen  *Generation
	sharedErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedGen != nil {
		sharedGen.Close()
	}
	if sharedHost != nil {
		sharedHost.Close(context.Background())
	}
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// build builds the tools and product plugins once per test binary.
func build(tb testing.TB) {
	tb.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "plugin-test-"); buildErr != nil {
			return
		}
		var srcs []string
		for _, d := range []string{toolsDir, productDir} {
			src, err := filepath.Abs(d)
			if err != nil {
				buildErr = err
				return
			}
			srcs = append(srcs, src)
		}
		cmd := exec.Command("go", append([]string{"run", "github.com/smith-agent/smith/tools/pluginbuild", "-out", buildDir}, srcs...)...)
		if msg, err := cmd.CombinedOutput(); err != nil {
			buildErr = errors.New("go run tools/pluginbuild " + strings.Join(srcs, " ") + ": " + err.Error() + "\n" + string(msg))
			return
		}
		if toolsWasm, buildErr = os.ReadFile(filepath.Join(buildDir, "tools.wasm")); buildErr != nil {
			return
		}
		productWasm, buildErr = os.ReadFile(filepath.Join(buildDir, "product.wasm"))
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
}

// wasm returns the tools plugin's bytes.
func wasm(tb testing.TB) []byte {
	tb.Helper()
	build(tb)
	return toolsWasm
}

// artifact is the tools plugin as a system artifact named name.
func artifact(tb testing.TB, name string, grants ...string) Artifact {
	b := wasm(tb)
	sum := sha256.Sum256(b)
	if grants == nil {
		grants = []string{"fs", "process"}
	}
	return Artifact{Name: name, Wasm: b, SHA256: hex.EncodeToString(sum[:]), Grants: grants,
		Instrumented: wasmhost.InstrumentationVersion()}
}

// shared is one Host and Generation with the tools plugin, for tests that
// only call tools.
func shared(tb testing.TB) *Generation {
	tb.Helper()
	a := artifact(tb, "tools")
	sharedOnce.Do(func() {
		if sharedHost, sharedErr = Open(context.Background(), Config{CacheDir: filepath.Join(buildDir, "cache")}); sharedErr != nil {
			return
		}
		sharedGen, sharedErr = sharedHost.Load(context.Background(), []Artifact{a})
	})
	if sharedErr != nil {
		tb.Fatal(sharedErr)
	}
	return sharedGen
}

// bench is a bound tool set over a temporary project with an in-memory
// journal.
type bench struct {
	root  string
	store *effect.MemStore
	b     *Binding
	tools map[string]agent.Tool
}

func newBench(tb testing.TB, g *Generation, e Effects) *bench {
	tb.Helper()
	root := tb.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	store := &effect.MemStore{}
	j, _, err := effect.Open(context.Background(), store, effect.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	e.Journal = j
	if e.Roots == nil {
		e.Roots = []string{root}
	}
	b, err := g.Bind(e)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Close() })
	tools := make(map[string]agent.Tool)
	for _, t := range b.Tools() {
		tools[t.Definition().Name] = t
	}
	return &bench{root: root, store: store, b: b, tools: tools}
}

func (w *bench) write(tb testing.TB, rel, content string) {
	tb.Helper()
	p := filepath.Join(w.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func (w *bench) read(tb testing.TB, rel string) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(w.root, rel))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

var callSeq struct {
	sync.Mutex
	n int
}

// call runs tool name with args (a JSON object) in the bench root.
func (w *bench) call(ctx context.Context, tb testing.TB, name, args string) (agent.Result, string, error) {
	tb.Helper()
	t, ok := w.tools[name]
	if !ok {
		tb.Fatalf("no tool %q", name)
	}
	callSeq.Lock()
	callSeq.n++
	id := "call_" + strings.Repeat("0", 3) + itoa(callSeq.n)
	callSeq.Unlock()
	res, err := t.Execute(ctx, &agent.Call{ID: id, Name: name, Arguments: json.RawMessage(args), Cwd: w.root})
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(model.Text); ok {
			text.WriteString(tc.Text)
		}
	}
	return res, text.String(), err
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
