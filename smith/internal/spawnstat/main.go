package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// stat is the JSON line spawnstat prints.
type stat struct {
	WallNS    int64 `json:"wall_ns"`
	UserNS    int64 `json:"user_ns"`
	SysNS     int64 `json:"sys_ns"`
	MaxRSSKiB int64 `json:"maxrss_kib"`
	MinFlt    int64 `json:"minflt"`
	Exit      int   `json:"exit"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "spawnstat: no command given; usage: spawnstat BINARY [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stdout
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil && cmd.ProcessState == nil {
		fmt.Fprintf(os.Stderr, "spawnstat: starting %s: %v\n", os.Args[1], err)
		os.Exit(2)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	line, _ := json.Marshal(stat{
		WallNS:    wall.Nanoseconds(),
		UserNS:    cmd.ProcessState.UserTime().Nanoseconds(),
		SysNS:     cmd.ProcessState.SystemTime().Nanoseconds(),
		MaxRSSKiB: ru.Maxrss,
		MinFlt:    ru.Minflt,
		Exit:      cmd.ProcessState.ExitCode(),
	})
	fmt.Fprintf(os.Stderr, "%s\n", line)
	os.Exit(cmd.ProcessState.ExitCode())
}
