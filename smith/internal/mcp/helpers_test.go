package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/smith/internal/sysplugins"
)

// smithBin is the smith binary built by TestMain, for the tests that
// drive `smith mcp` over real pipes.
var smithBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "smith-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	smithBin = filepath.Join(dir, "smith")
	build := exec.Command("go", "build", "-o", smithBin, "github.com/smith-agent/smith/smith")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "build the smith binary: %v\n", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// world is a project directory and a Smith home with nothing of the real
// user's in it.
type world struct {
	project, home, user string
}

func newWorld(tb testing.TB) *world {
	tb.Helper()
	root := tb.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	w := &world{project: filepath.Join(root, "project"), home: filepath.Join(root, "home"), user: filepath.Join(root, "user")}
	for _, d := range []string{w.project, w.home, w.user} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	w.write(tb, "hello.txt", "hello from the project\n")
	return w
}

func (w *world) write(tb testing.TB, rel, text string) {
	tb.Helper()
	p := filepath.Join(w.project, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// env is the environment of a smith process over the world.
func (w *world) env() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.user, "SMITH_HOME=" + w.home,
		"XDG_CACHE_HOME=" + filepath.Join(os.TempDir(), "smith-mcp-test-cache")}
}

// open opens a runtime over the world, with the embedded system plugins.
func (w *world) open(tb testing.TB) *runtime.Runtime {
	tb.Helper()
	arts, err := sysplugins.Artifacts()
	if err != nil {
		tb.Fatal(err)
	}
	env := map[string]string{"HOME": w.user, "XDG_CACHE_HOME": filepath.Join(os.TempDir(), "smith-mcp-test-cache")}
	rt, err := runtime.Open(context.Background(), runtime.Config{Cwd: w.project, Home: w.home, Plugins: arts, Version: "test",
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = rt.Close(context.Background()) })
	return rt
}

// inProcess serves a new session called name over in-memory transports
// and returns a connected SDK client session; opts may be nil.
func inProcess(tb testing.TB, w *world, name string, opts *sdk.ClientOptions) (*sdk.ClientSession, *Server, *runtime.Runtime) {
	tb.Helper()
	ctx := context.Background()
	rt := w.open(tb)
	sess, err := rt.OpenOrCreateSession(ctx, name)
	if err != nil {
		tb.Fatal(err)
	}
	srv, err := New(ctx, Options{Runtime: rt, Session: sess, Version: "test"})
	if err != nil {
		tb.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st)
	if err != nil {
		tb.Fatal(err)
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
		_ = sess.Close(context.Background())
	})
	return cs, srv, rt
}

// textOf joins the text contents of a result.
func textOf(cs []sdk.Content) string {
	var b strings.Builder
	for _, c := range cs {
		if t, ok := c.(*sdk.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// bounded is a context for one step of a test: every wait is bounded.
func bounded(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	tb.Cleanup(cancel)
	return ctx
}
