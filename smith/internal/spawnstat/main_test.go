package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestMain doubles as the child that the tests measure: with
// SPAWNSTAT_TEST_TOUCH_MIB=N the test binary touches N MiB and exits 3.
func TestMain(m *testing.M) {
	if n := os.Getenv("SPAWNSTAT_TEST_TOUCH_MIB"); n != "" {
		var mib int
		for _, c := range n {
			mib = mib*10 + int(c-'0')
		}
		buf := make([]byte, mib<<20)
		for i := 0; i < len(buf); i += 4096 {
			buf[i] = 1
		}
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// build builds spawnstat into a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "spawnstat")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type result struct {
	stat
	code   int
	stdout string
}

func spawn(t *testing.T, bin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{code: cmd.ProcessState.ExitCode(), stdout: stdout.String()}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	if r.code == 2 {
		r.stdout = stderr.String()
		return r
	}
	if err := json.Unmarshal(stderr.Bytes(), &r.stat); err != nil {
		t.Fatalf("stderr is not one JSON line: %q: %v", stderr.Bytes(), err)
	}
	return r
}

// TestSpawnstat: the child's output passes through, its exit status is
// spawnstat's, and the figures are the child's own — its peak RSS counts
// the memory it touched and not the launching test binary's (which has
// touched more than the child before it starts it).
func TestSpawnstat(t *testing.T) {
	bin := build(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Grow this process well past what the small child will use.
	ballast := make([]byte, 96<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	var own syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &own); err != nil {
		t.Fatal(err)
	}

	echo := spawn(t, bin, nil, "/bin/sh", "-c", "echo out; echo err >&2; exit 5")
	if echo.code != 5 || echo.Exit != 5 || echo.stdout != "out\nerr\n" {
		t.Errorf("sh: exit %d (json %d), output %q; want 5, 5, \"out\\nerr\\n\"", echo.code, echo.Exit, echo.stdout)
	}
	if echo.WallNS <= 0 || echo.MaxRSSKiB <= 0 || echo.MinFlt <= 0 {
		t.Errorf("sh: figures %+v must all be positive", echo.stat)
	}
	if echo.MaxRSSKiB*1024 >= int64(len(ballast)) || echo.MaxRSSKiB >= own.Maxrss/2 {
		t.Errorf("sh's peak RSS %d KiB is the launcher's, not its own (this test binary's is %d KiB)", echo.MaxRSSKiB, own.Maxrss)
	}

	big := spawn(t, bin, []string{"SPAWNSTAT_TEST_TOUCH_MIB=48"}, self)
	if big.code != 3 || big.MaxRSSKiB < 48<<10 {
		t.Errorf("a child touching 48 MiB: exit %d, peak RSS %d KiB; want 3 and at least %d KiB", big.code, big.MaxRSSKiB, 48<<10)
	}
	_ = ballast[len(ballast)-1]
}

// TestSpawnstatErrors: a missing command or a command that cannot start
// exits 2 with a message naming it.
func TestSpawnstatErrors(t *testing.T) {
	bin := build(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no command", args: nil, want: "usage: spawnstat BINARY"},
		{name: "not found", args: []string{"/nonexistent/smith-x"}, want: "/nonexistent/smith-x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := spawn(t, bin, nil, tt.args...)
			if r.code != 2 || !strings.Contains(r.stdout, tt.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", r.code, r.stdout, tt.want)
			}
		})
	}
}
