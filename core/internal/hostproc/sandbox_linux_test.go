//go:build linux

package hostproc

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/internal/sandbox"
	"github.com/smith-agent/smith/core/model"
)

func needSandbox(t *testing.T) sandbox.Info {
	t.Helper()
	info := sandbox.Probe()
	if !info.Available {
		t.Skipf("no sandbox here: %s", info.Reason)
	}
	return info
}

// noRestrictedThread fails unless, within a second, no thread of this
// process but the main one has no_new_privs set (the sandbox sets it with
// the Landlock domain): the thread that started a sandboxed command died
// with its goroutine. The Go runtime parks a locked main thread for good
// instead of ending it; it never runs a goroutine again.
func noRestrictedThread(t *testing.T) {
	t.Helper()
	main := fmt.Sprintf("/proc/self/task/%d/status", os.Getpid())
	for deadline := time.Now().Add(time.Second); ; time.Sleep(5 * time.Millisecond) {
		files, _ := filepath.Glob("/proc/self/task/*/status")
		var marked []string
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && f != main && strings.Contains(string(b), "NoNewPrivs:\t1") {
				marked = append(marked, f)
			}
		}
		if len(marked) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("threads still restricted after the command: %v", marked)
		}
	}
}

// sandboxDirs makes a root holding "old", a temp dir (TMPDIR for the
// test) and a directory outside both holding "keep".
func sandboxDirs(t *testing.T) (root, tmp, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, tmp, outside = filepath.Join(base, "root"), filepath.Join(base, "tmp"), filepath.Join(base, "outside")
	for _, d := range []string{root, tmp, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(root, "old"), filepath.Join(outside, "keep")} {
		if err := os.WriteFile(f, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", tmp)
	return root, tmp, outside
}

type sandboxCase struct {
	name   string
	cmd    string
	out    string // the exact output, when not denied
	denied bool   // the command fails with a permission error and the note
}

func runSandboxCases(t *testing.T, p sandbox.Policy, dir string, cases []sandboxCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, context.Background(), c.cmd, Options{Dir: dir, Sandbox: p})
			if r.Sandbox != p.Describe() || r.Mutation != model.MutationApplied {
				t.Fatalf("result = %+v; want the sandbox %q recorded", r, p.Describe())
			}
			if c.denied {
				if r.ExitCode == 0 || !strings.Contains(string(r.Output), "Permission denied") || !strings.Contains(r.Notice(), "[sandbox "+string(p.Mode)+": ") {
					t.Fatalf("output %q, exit %d, notice %q; want denied with the sandbox note", r.Output, r.ExitCode, r.Notice())
				}
				return
			}
			if r.ExitCode != 0 || string(r.Output) != c.out || r.Notice() != "" {
				t.Fatalf("output %q, exit %d, notice %q; want %q, exit 0, no notice", r.Output, r.ExitCode, r.Notice(), c.out)
			}
		})
	}
}

// TestSandboxWorkspaceWrite: a sandboxed command (and what it starts) may
// write only in its roots, the temp dir and devices; the test process
// itself is not restricted afterwards, nor are unsandboxed commands.
func TestSandboxWorkspaceWrite(t *testing.T) {
	needSandbox(t)
	root, tmp, outside := sandboxDirs(t)
	p := sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: true, Roots: []string{root}}
	runSandboxCases(t, p, root, []sandboxCase{
		{"write in the root", "echo y > new && cat new", "y\n", false},
		{"mkdir, move and remove in the root", "mkdir d && mv new d/ && rm d/new && rmdir d && ln -s old link && rm link && echo ok", "ok\n", false},
		{"write in the temp dir", "echo t > " + tmp + "/t && mktemp >/dev/null && echo ok", "ok\n", false},
		{"devices", "echo a >/dev/null; echo b >/dev/stdout; echo c >/dev/stderr; head -c1 /dev/zero >/dev/null; : >/dev/null", "b\nc\n", false},
		{"read outside", "cat " + outside + "/keep", "x\n", false},
		{"write outside", "echo x > " + outside + "/new", "", true},
		{"remove outside", "rm " + outside + "/keep", "", true},
		{"truncate outside", ": > " + outside + "/keep", "", true},
		{"grandchild writes outside", "sh -c 'touch " + outside + "/deep'", "", true},
		{"background child writes outside", "(echo x > " + outside + "/bg) & wait $!", "", true},
	})
	for _, name := range []string{"new", "deep", "bg"} {
		if _, err := os.Lstat(filepath.Join(outside, name)); !os.IsNotExist(err) {
			t.Errorf("%s outside the roots: %v; want it not created", name, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(outside, "keep")); err != nil || string(b) != "x\n" {
		t.Errorf("outside/keep = %q, %v; want it untouched", b, err)
	}
	// Neither this process nor its later commands are restricted.
	if err := os.WriteFile(filepath.Join(outside, "after"), nil, 0o644); err != nil {
		t.Fatalf("the test process cannot write outside the roots after sandboxed runs: %v", err)
	}
	if r := run(t, context.Background(), "echo x > "+outside+"/unsandboxed", Options{}); r.ExitCode != 0 {
		t.Fatalf("an unsandboxed command after sandboxed runs: %+v", r)
	}
	noRestrictedThread(t)
}

func TestSandboxReadOnly(t *testing.T) {
	needSandbox(t)
	root, tmp, _ := sandboxDirs(t)
	p := sandbox.Policy{Mode: sandbox.ReadOnly, Network: true, Roots: []string{root}}
	runSandboxCases(t, p, root, []sandboxCase{
		{"read the root", "cat old", "x\n", false},
		{"devices", "echo a >/dev/null 2>&1 && echo ok", "ok\n", false},
		{"write in the root", "echo y > new", "", true},
		{"write in the temp dir", "echo y > " + tmp + "/new", "", true},
	})
	noRestrictedThread(t)
}

// TestSandboxNetwork: with Network false a sandboxed command cannot open
// a TCP connection (when the kernel can deny it: Landlock ABI 4); with
// Network true it can.
func TestSandboxNetwork(t *testing.T) {
	info := needSandbox(t)
	if !strings.HasSuffix(Shell(), "bash") {
		t.Fatalf("the shell is %s; this test needs bash for /dev/tcp", Shell())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	cmd := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)
	tests := []struct {
		name    string
		network bool
		denied  bool
	}{
		{"allowed", true, false},
		{"denied", false, info.Network},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: tt.network, Roots: []string{t.TempDir()}}
			r := run(t, context.Background(), cmd, Options{Sandbox: p})
			if tt.denied {
				if r.ExitCode == 0 || !strings.Contains(r.Notice(), "network connections") {
					t.Fatalf("output %q, exit %d, notice %q; want the connection denied with a note", r.Output, r.ExitCode, r.Notice())
				}
				return
			}
			if r.ExitCode != 0 || string(r.Output) != "connected\n" {
				t.Fatalf("output %q, exit %d; want connected", r.Output, r.ExitCode)
			}
		})
	}
}

// TestSandboxFailureRunsNothing: a sandbox that cannot be applied stops
// the command, with an error that says how to switch the sandbox off.
func TestSandboxFailureRunsNothing(t *testing.T) {
	needSandbox(t)
	dir := t.TempDir()
	p := sandbox.Policy{Mode: sandbox.WorkspaceWrite, Roots: []string{"relative/root"}}
	r, err := Run(context.Background(), "touch ran", Options{Dir: dir, Sandbox: p})
	if err == nil || r.Mutation != model.MutationNotApplied {
		t.Fatalf("Run = %+v, %v; want an error, not applied", r, err)
	}
	for _, want := range []string{`"relative/root" is not absolute`, "the command was not started", "--sandbox off", `sandbox "off" in smith.kdl`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q; want it to say %s", err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); !os.IsNotExist(err) {
		t.Fatalf("the command ran: %v", err)
	}
	noRestrictedThread(t)
}
