package rustdriver

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBinaryRemoved: the driver runs from a file already deleted, so a
// test process killed before Stop leaves no binary behind.
func TestBinaryRemoved(t *testing.T) {
	d := Start(t, echo)
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", d.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(exe, " (deleted)") {
		t.Fatalf("the driver runs from %s, which still exists", exe)
	}
}

// TestDiesWithTestProcess: a test process killed outright (as a fuzz
// worker may be) takes its driver with it.
func TestDiesWithTestProcess(t *testing.T) {
	if os.Getenv("RUSTDRIVER_CHILD") == "1" {
		d := Start(t, echo, "--cfg", "child")
		fmt.Printf("pid %d\n", d.cmd.Process.Pid)
		time.Sleep(time.Minute) // until the parent kills this process
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDiesWithTestProcess$", "-test.v")
	cmd.Env = append(os.Environ(), "RUSTDRIVER_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	pid := 0
	for sc := bufio.NewScanner(out); pid == 0 && sc.Scan(); {
		if rest, ok := strings.CutPrefix(sc.Text(), "pid "); ok {
			pid, _ = strconv.Atoi(rest)
		}
	}
	if pid == 0 {
		t.Fatal("the child test process started no driver")
	}
	cmd.Process.Kill()
	for range 100 {
		if !alive(pid) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("driver %d outlived its killed test process by 5 s", pid)
}

// alive reports whether process pid runs: it exists and is not a zombie
// (which an init that does not reap would leave).
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	i := strings.LastIndexByte(string(stat), ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] != 'Z'
}
