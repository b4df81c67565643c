package rpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/rpcclient"
	"github.com/smith-agent/smith/smith/internal/demoproject"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
	buildDir  string
)

// smithBinary builds the smith binary once for the package's tests.
func smithBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the smith binary")
	}
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "smith-rpc-bin-")
		if buildErr != nil {
			return
		}
		binary = filepath.Join(buildDir, "smith")
		out, err := exec.Command("go", "build", "-o", binary, "github.com/smith-agent/smith/smith").CombinedOutput()
		if err != nil {
			buildErr = &buildError{out: string(out), err: err}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return "go build ./smith: " + e.err.Error() + "\n" + e.out }

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// smithCmd is `smith rpc ARGS` in a fresh demo project and home.
func smithCmd(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	bin := smithBinary(t)
	w := newWorld(t)
	if err := demoproject.Write(w.Project); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"rpc", "--cwd", w.Project}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(w.Home, "user"), "SMITH_HOME=" + w.Home,
		"TMPDIR=" + os.TempDir(), "XDG_CACHE_HOME=" + w.Cache}
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	return cmd, stderr
}

// TestBinaryScriptedSession runs the real `smith rpc` through pipes: a
// prompt to the mock model in a demo project, its notifications, wait,
// state and the session tree, a bad line, shutdown. Every stdout line is
// a protocol message; the answers keep the lines' order.
func TestBinaryScriptedSession(t *testing.T) {
	cmd, stderr := smithCmd(t, "--model", "mock")
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"prompt","params":{"text":"` + demoproject.Prompt + `"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"wait","params":{"timeout_ms":60000}}`,
		`{"jsonrpc":"2.0","id":3,"method":"state"}`,
		`{"jsonrpc":"2.0","id":4,"method":"session.tree"}`,
		`not json`,
		`{"jsonrpc":"2.0","id":5,"method":"shutdown"}`,
	}, "\n") + "\n")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := run(cmd, time.Minute); err != nil {
		t.Fatalf("smith rpc: %v\nstderr:\n%s", err, stderr)
	}
	var ids []string
	var evs []protocol.Event
	results := map[string]message{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m message
		if err := wellFormed(sc.Bytes(), &m); err != nil {
			t.Fatalf("stdout line %q: %v", sc.Text(), err)
		}
		if m.Method != "" {
			ev, _ := protocol.UnmarshalEvent(m.Params)
			evs = append(evs, ev)
			continue
		}
		ids = append(ids, string(m.ID))
		results[string(m.ID)] = m
	}
	if got := strings.Join(ids, " "); got != "1 2 3 4 null 5" {
		t.Fatalf("responses came for the ids %s; want 1 2 3 4 null 5", got)
	}
	msgs := checkStream(t, evs)
	if len(msgs) < 2 {
		t.Fatalf("%d assistant messages; the demo script has several", len(msgs))
	}
	tools := 0
	for _, ev := range evs {
		if _, ok := ev.(protocol.ToolExecutionEnd); ok {
			tools++
		}
	}
	if tools == 0 {
		t.Error("no tool ran; the demo script reads, edits and tests")
	}
	if _, ok := evs[len(evs)-1].(protocol.Settled); !ok {
		t.Errorf("the last notification is %s; want settled", protocol.EventType(evs[len(evs)-1]))
	}
	var wr protocol.WaitResult
	if err := json.Unmarshal(results["2"].Result, &wr); err != nil || !wr.Settled || wr.End.Reason != protocol.EndCompleted {
		t.Fatalf("wait = %s", results["2"].raw)
	}
	var st protocol.State
	if err := json.Unmarshal(results["3"].Result, &st); err != nil || st.Running || st.Session.Name != "fix-the-bug" || st.Session.Entries == 0 {
		t.Fatalf("state = %s", results["3"].raw)
	}
	var tree []protocol.TreeNode
	if err := json.Unmarshal(results["4"].Result, &tree); err != nil || len(tree) == 0 || !tree[len(tree)-1].Selected {
		t.Fatalf("tree = %s", results["4"].raw)
	}
	if e := results["null"].Error; e == nil || e.Code != protocol.CodeParseError {
		t.Fatalf("the bad line got %s", results["null"].raw)
	}
	if stderr.Len() != 0 {
		t.Logf("stderr:\n%s", stderr)
	}
}

// TestBinaryClient drives the real binary with the Go client: Start, a
// prompt, the events, state, and Close ending the process cleanly.
func TestBinaryClient(t *testing.T) {
	cmd, stderr := smithCmd(t, "--model", "mock", "--session", "client")
	c, err := rpcclient.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	st, err := c.State(ctx)
	if err != nil || st.Session.Name != "client" {
		t.Fatalf("state with --session client = %+v, %v", st.Session, err)
	}
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: demoproject.Prompt}); err != nil {
		t.Fatal(err)
	}
	checkStream(t, untilSettled(t, c))
	if st, err = c.State(ctx); err != nil || st.Running || st.Stats.Responses == 0 {
		t.Fatalf("state after the run = %+v, %v", st, err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v\nstderr:\n%s", err, stderr)
	}
}

// run runs cmd, killing it after d.
func run(cmd *exec.Cmd, d time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	t := time.AfterFunc(d, func() { _ = cmd.Process.Kill() })
	defer t.Stop()
	return cmd.Wait()
}
