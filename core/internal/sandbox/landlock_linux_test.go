//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func needLandlock(t *testing.T) Info {
	t.Helper()
	info := Probe()
	if !info.Available {
		t.Skipf("no sandbox here: %s", info.Reason)
	}
	if info.Mechanism != "landlock" || info.ABI < 1 {
		t.Fatalf("Probe() = %+v; want Landlock", info)
	}
	return info
}

// restricted runs fn on a new goroutine locked to a thread restricted to
// p, as hostproc does; the thread dies with the goroutine.
func restricted(p Policy, fn func()) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the restricted thread dies with this goroutine
		err := p.RestrictThread()
		if err == nil {
			fn()
		}
		done <- err
	}()
	return <-done
}

// noRestrictedThread fails unless, within a second, no thread of this
// process has no_new_privs set (RestrictThread sets it with the Landlock
// domain): the restricted thread died with its goroutine. The main thread
// is the exception: when the goroutine ran there, the Go runtime parks the
// thread for good instead of ending it, and it never runs a goroutine
// again.
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
			t.Fatalf("threads still restricted after their goroutine ended: %v", marked)
		}
	}
}

type layout struct{ root, tmp, outside, extra string }

// newLayout makes a root, a temp dir (TMPDIR for the test), a directory
// outside both holding a file "keep", and a writable file "extra.txt"
// beside them.
func newLayout(t *testing.T) layout {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := layout{filepath.Join(base, "root"), filepath.Join(base, "tmp"), filepath.Join(base, "outside"), filepath.Join(base, "extra.txt")}
	for _, d := range []string{l.root, l.tmp, l.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(l.outside, "keep"), filepath.Join(l.root, "old"), l.extra} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", l.tmp)
	return l
}

func sh(cmd string) error { return exec.Command("/bin/sh", "-c", cmd).Run() }

func TestRestrictThreadWorkspaceWrite(t *testing.T) {
	needLandlock(t)
	l := newLayout(t)
	p := Policy{Mode: WorkspaceWrite, Network: true, Roots: []string{l.root, filepath.Join(l.root, "..", "missing")}, Writable: []string{l.extra}}
	in, out := func(name string) string { return filepath.Join(l.root, name) }, func(name string) string { return filepath.Join(l.outside, name) }
	checks := []struct {
		name   string
		do     func() error
		denied bool
	}{
		{"write in a root", func() error { return os.WriteFile(in("new"), []byte("y"), 0o644) }, false},
		{"mkdir in a root", func() error { return os.Mkdir(in("d"), 0o755) }, false},
		{"rename in a root", func() error { return os.Rename(in("new"), in("d/moved")) }, false},
		{"symlink in a root", func() error { return os.Symlink("old", in("link")) }, false},
		{"truncate in a root", func() error { return os.Truncate(in("old"), 0) }, false},
		{"remove in a root", func() error { return os.Remove(in("link")) }, false},
		{"write in the temp dir", func() error { return os.WriteFile(filepath.Join(l.tmp, "t"), nil, 0o644) }, false},
		{"move from a root to the temp dir", func() error { return os.Rename(in("old"), filepath.Join(l.tmp, "old")) }, false},
		{"write a writable file", func() error { return os.WriteFile(l.extra, []byte("z"), 0o644) }, false},
		{"write /dev/null", func() error { return os.WriteFile(os.DevNull, []byte("z"), 0o644) }, false},
		{"read outside", func() error { _, err := os.ReadFile(out("keep")); return err }, false},
		{"exec a program", func() error { return sh("true") }, false},
		{"child writes in a root", func() error { return sh("echo x > " + in("child") + " && echo x >/dev/null") }, false},
		{"write outside", func() error { return os.WriteFile(out("new"), nil, 0o644) }, true},
		{"mkdir outside", func() error { return os.Mkdir(out("d"), 0o755) }, true},
		{"remove outside", func() error { return os.Remove(out("keep")) }, true},
		{"truncate outside", func() error { return os.Truncate(out("keep"), 0) }, true},
		{"write beside a writable file", func() error { return os.WriteFile(l.extra+".2", nil, 0o644) }, true},
		{"child writes outside", func() error { return sh("echo x > " + out("child")) }, true},
	}
	err := restricted(p, func() {
		for _, c := range checks {
			err := c.do()
			var exit *exec.ExitError
			denied := errors.Is(err, fs.ErrPermission) || errors.As(err, &exit)
			if denied != c.denied || (err != nil && !denied) {
				t.Errorf("%s: err = %v; want denied %v", c.name, err, c.denied)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"new", "d", "child"} {
		if _, err := os.Lstat(out(name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s outside the roots: %v; want it not created", name, err)
		}
	}
	if b, err := os.ReadFile(out("keep")); err != nil || string(b) != "x" {
		t.Errorf("outside/keep = %q, %v; want it untouched", b, err)
	}
	// The rest of the process is not restricted.
	if err := os.WriteFile(out("after"), nil, 0o644); err != nil {
		t.Fatalf("write outside from the test after the restricted goroutine: %v", err)
	}
	if err := sh("echo x > " + out("after-child")); err != nil {
		t.Fatalf("child write outside after the restricted goroutine: %v", err)
	}
	noRestrictedThread(t)
}

func TestRestrictThreadReadOnly(t *testing.T) {
	needLandlock(t)
	l := newLayout(t)
	p := Policy{Mode: ReadOnly, Network: true, Roots: []string{l.root}, Writable: []string{l.extra}}
	checks := []struct {
		name   string
		do     func() error
		denied bool
	}{
		{"read a root", func() error { _, err := os.ReadFile(filepath.Join(l.root, "old")); return err }, false},
		{"write /dev/null", func() error { return os.WriteFile(os.DevNull, []byte("z"), 0o644) }, false},
		{"child redirects to /dev/null", func() error { return sh("echo x >/dev/null 2>&1") }, false},
		{"write in a root", func() error { return os.WriteFile(filepath.Join(l.root, "new"), nil, 0o644) }, true},
		{"write in the temp dir", func() error { return os.WriteFile(filepath.Join(l.tmp, "new"), nil, 0o644) }, true},
		{"write a writable file", func() error { return os.WriteFile(l.extra, nil, 0o644) }, true},
	}
	err := restricted(p, func() {
		for _, c := range checks {
			if err := c.do(); errors.Is(err, fs.ErrPermission) != c.denied || (err != nil && !c.denied) {
				t.Errorf("%s: err = %v; want denied %v", c.name, err, c.denied)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	noRestrictedThread(t)
}

func TestRestrictThreadNetwork(t *testing.T) {
	info := needLandlock(t)
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
	tests := []struct {
		name    string
		network bool
		denied  bool
	}{
		{"allowed", true, false},
		{"denied", false, info.Network}, // an ABI before 4 cannot deny it
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var derr error
			err := restricted(Policy{Mode: WorkspaceWrite, Network: tt.network}, func() {
				var c net.Conn
				if c, derr = net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second); derr == nil {
					c.Close()
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if errors.Is(derr, fs.ErrPermission) != tt.denied || (derr != nil && !tt.denied) {
				t.Fatalf("dial = %v; want denied %v", derr, tt.denied)
			}
		})
	}
}

func TestRestrictThreadRefusesBadPolicy(t *testing.T) {
	tests := []struct {
		name string
		p    Policy
		err  string
	}{
		{"unknown mode", Policy{Mode: "strict"}, `sandbox: unknown mode "strict"; use "workspace-write", "read-only" or "off"`},
		{"relative root", Policy{Mode: WorkspaceWrite, Roots: []string{"src"}}, `sandbox: writable path "src" is not absolute; give it as an absolute path`},
		{"relative writable", Policy{Mode: ReadOnly, Writable: []string{"./cache"}}, `sandbox: writable path "./cache" is not absolute; give it as an absolute path`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := restricted(tt.p, func() { t.Error("ran restricted") })
			if err == nil || err.Error() != tt.err {
				t.Fatalf("RestrictThread = %v; want %s", err, tt.err)
			}
		})
	}
}

func TestRestrictThreadOffDoesNothing(t *testing.T) {
	l := newLayout(t)
	for _, p := range []Policy{{}, {Mode: Off, Roots: []string{l.root}}} {
		err := restricted(p, func() {
			if err := os.WriteFile(filepath.Join(l.outside, "off"), nil, 0o644); err != nil {
				t.Errorf("policy %+v: %v", p, err)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	noRestrictedThread(t)
}

func TestHandledFS(t *testing.T) {
	tests := []struct {
		name string
		abi  int
		want uint64
	}{
		{"ABI 1", 1, 0x1fff},
		{"ABI 2 adds refer", 2, 0x3fff},
		{"ABI 3 adds truncate", 3, 0x7fff},
		{"ABI 4 adds nothing for files", 4, 0x7fff},
		{"ABI 5 adds device ioctl", 5, 0xffff},
		{"later ABIs add nothing known", 9, 0xffff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := handledFS(tt.abi); got != tt.want {
				t.Fatalf("handledFS(%d) = %#x; want %#x", tt.abi, got, tt.want)
			}
		})
	}
}

// BenchmarkRestrictThread is the cost of restricting a fresh locked thread
// (rule set, rules, restrict), with the cost of the thread itself.
func BenchmarkRestrictThread(b *testing.B) {
	if info := Probe(); !info.Available {
		b.Skipf("no sandbox here: %s", info.Reason)
	}
	modes := []struct {
		name string
		p    Policy
	}{
		{"off", Policy{}},
		{"workspace-write", Policy{Mode: WorkspaceWrite, Network: true, Roots: []string{b.TempDir()}}},
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			for b.Loop() {
				if err := restricted(m.p, func() {}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestUnavailableReason(t *testing.T) {
	tests := []struct {
		name string
		e    unix.Errno
		want string
	}{
		{"not in the kernel", unix.ENOSYS, "Landlock is not enabled in this kernel (landlock_create_ruleset: ENOSYS)"},
		{"disabled at boot", unix.EOPNOTSUPP, "Landlock is built into this kernel but disabled at boot; add landlock to the lsm= kernel parameter (landlock_create_ruleset: EOPNOTSUPP)"},
		{"seccomp", unix.EPERM, "Landlock is blocked here, probably by a seccomp filter (landlock_create_ruleset: EPERM)"},
		{"other", unix.EINVAL, "Landlock is not usable here (landlock_create_ruleset: EINVAL)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unavailable(tt.e); got != tt.want {
				t.Fatalf("unavailable(%v) = %q; want %q", tt.e, got, tt.want)
			}
		})
	}
}
