//go:build linux

package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// BenchmarkInteractiveFirstFrame: a bare `smith` in a 120×40 pty whose
// far side answers the capability probe like a terminal, warm (the plugin
// cache filled): the time from exec to the first frame on the screen, and
// the resident memory of the idle TUI with an empty session half a second
// later (peers, measured in peers.md: codex 0.03 s, crush 0.11 s to the
// first frame; crush idles at 72 MiB).
func BenchmarkInteractiveFirstFrame(b *testing.B) {
	e := newEnv(b)
	e.demo()
	var total time.Duration
	var rss int64
	run := func() (time.Duration, int64) {
		cmd := exec.Command(smithBin, "--model", "mock")
		cmd.Dir = e.cwd
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.home, "SMITH_HOME=" + e.home, "TMPDIR=" + e.tmp, "XDG_CACHE_HOME=" + cacheDir, "TERM=xterm-256color"}
		start := time.Now()
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		var seen strings.Builder
		buf := make([]byte, 64<<10)
		var first time.Duration
		_ = f.SetReadDeadline(time.Now().Add(20 * time.Second))
		for first == 0 {
			n, err := f.Read(buf)
			seen.Write(buf[:n])
			if strings.Contains(seen.String(), "\x1b[c") && !strings.Contains(seen.String(), "answered") {
				_, _ = f.WriteString("\x1b[?62;22c")
				seen.WriteString("answered")
			}
			if strings.Contains(seen.String(), "Ask") {
				first = time.Since(start)
			}
			if err != nil {
				b.Fatalf("no first frame: %v\n%q", err, seen.String())
			}
		}
		// Idle for a moment, then read its resident memory.
		go func() {
			for {
				if _, err := f.Read(buf); err != nil {
					return
				}
			}
		}()
		time.Sleep(500 * time.Millisecond)
		kib := vmRSS(cmd.Process.Pid)
		_, _ = f.WriteString("\x03\x03")
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			b.Fatal("ctrl+c twice did not quit within 10s")
		}
		return first, kib
	}
	run() // fill the cache
	b.ResetTimer()
	for range b.N {
		d, kib := run()
		total += d
		rss += kib
	}
	b.StopTimer()
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-first-frame")
	b.ReportMetric(float64(rss)/1024/float64(b.N), "idle-RSS-MiB")
}

// vmRSS is a process's resident set in KiB, from /proc.
func vmRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			n, _ := strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			return n
		}
	}
	return 0
}
