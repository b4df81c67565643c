//go:build linux

package hostproc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// On Linux the process becomes a child subreaper at its first command, so
// a descendant that leaves the command's process group (setsid, a daemon's
// double fork) is reparented to this process rather than to init when its
// parent exits, and sweep can find it. Each command's processes carry a
// marker in their environment (markerVar=the run's id), inherited by
// everything they start.

var subreaper sync.Once

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER (Linux 3.4).
const prSetChildSubreaper = 36

// becomeSubreaper makes the process a child subreaper, once.
func becomeSubreaper() {
	subreaper.Do(func() { _, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0) })
}

// shellAttr is how a command's shell starts: leading its own process
// group, with SIGKILL as the signal it gets when the thread that started
// it ends: also when this process is killed outright.
func shellAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// What a command's shell started outlives the shell's parent-death signal
// (reparented to init, where sweep cannot reach it), so a guard process
// kills it: a shell started at the first command, in a process group of
// its own and deaf to the terminal's signals, that reads a pipe only this
// process can write. When this process ends, however it ends, the kernel
// closes the pipe, and the guard kills every process whose environment
// carries this process's run-id prefix, until none is left, then exits.
// A normal exit finds nothing (every command was swept): one grep over
// /proc.
var guard struct {
	once   sync.Once
	prefix string
	pipe   *os.File // the write end, held open (never written) for the process's life
}

// guardScript is the guard: $1 is the run-id prefix.
const guardScript = `trap '' HUP INT TERM QUIT PIPE
while read -r _; do :; done
i=0
while [ $i -lt 100 ]; do
	pids=$(grep -lzs -e "^` + markerVar + `=$1" /proc/[0-9]*/environ | sed -e 's|^/proc/||' -e 's|/environ$||')
	[ -z "$pids" ] && exit 0
	kill -KILL $pids 2>/dev/null
	i=$((i+1))
	sleep 0.05
done`

// runPrefix returns this process's run-id prefix, starting the guard at
// the first call. A guard that cannot start leaves the shell's
// parent-death signal as the only protection.
func runPrefix() string {
	guard.once.Do(func() {
		guard.prefix = "g" + runID() + "-"
		r, w, err := os.Pipe()
		if err != nil {
			return
		}
		cmd := exec.Command("/bin/sh", "-c", guardScript, "smith-guard", guard.prefix)
		cmd.Stdin = r
		cmd.Env = []string{"PATH=/usr/bin:/bin"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		err = cmd.Start()
		r.Close()
		if err != nil {
			w.Close()
			return
		}
		guard.pipe = w
		go func() { _ = cmd.Wait() }() // reaped if it ends first
	})
	return guard.prefix
}

// sweep kills every process reparented to this one that belongs to the
// run: its environment carries the run id's marker, or it is in the run's
// process group pgid or the group of one killed before. Each is killed
// (with its group, when it leads one) and reaped, a zombie only reaped;
// their deaths reparent their own children here, so it repeats until a
// round finds nothing, within a bound; killed reports that the run's
// group still had members when it was killed, which may be on their way
// here. Another run's processes carry another marker and group; the run's
// own shell was reaped by its Wait.
func sweep(id string, pgid int, killed bool) {
	marker := []byte(markerVar + "=" + id)
	groups := map[int]bool{pgid: true}
	quiet := 0
	if !killed {
		quiet = 2 // nothing was killed: one round for escapees suffices
	}
	for round := 0; round < 200 && quiet < 3; round++ {
		found := false
		for _, pid := range children() {
			state, group, ok := stat(pid)
			if !ok || !(groups[group] || carries(pid, marker)) {
				continue
			}
			found = true
			if state != 'Z' {
				groups[group] = true
				_ = syscall.Kill(-group, syscall.SIGKILL)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			var st syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &st, 0, nil)
		}
		if found {
			quiet = 0
		} else if quiet++; quiet < 3 {
			// A process killed a moment ago may still be on its way here.
			time.Sleep(time.Millisecond)
		}
	}
}

// stat returns process pid's state and process group from
// /proc/pid/stat.
func stat(pid int) (state byte, group int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:])) // state, ppid, pgrp, ...
	if len(f) < 3 {
		return 0, 0, false
	}
	g, err := strconv.Atoi(f[2])
	return f[0][0], g, err == nil
}

// children lists the pids whose parent is this process, from every
// thread's children file.
func children() []int {
	files, _ := filepath.Glob("/proc/self/task/*/children")
	var out []int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, s := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(s); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// carries reports whether process pid's environment holds marker.
func carries(pid int, marker []byte) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if bytes.Equal(kv, marker) {
			return true
		}
	}
	return false
}
