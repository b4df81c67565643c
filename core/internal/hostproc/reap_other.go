//go:build unix && !linux

package hostproc

import "syscall"

// becomeSubreaper does nothing: only Linux has child subreapers, so a
// descendant that leaves the command's process group (setsid) can outlive
// it here.
func becomeSubreaper() {}

// shellAttr is how a command's shell starts: leading its own process
// group. No parent-death signal (Linux and FreeBSD have one; Smith uses
// it only on Linux, with the subreaper), so a command outlives a Smith
// that is killed outright here.
func shellAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// sweep does nothing without a subreaper.
func sweep(string, int, bool) {}

// runPrefix is empty: without /proc there is no guard to find a
// command's processes by their environment.
func runPrefix() string { return "" }
