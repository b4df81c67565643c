//go:build unix && !linux

package hostproc

import "syscall"

// becomeSubreaper does nothing: only Linux has child subreapers, so a
// descendant that leaves the command's process group (setsid) can outlive
// it here.
func becomeSubreaper() {}

// parentDeathSignal is 0: only Linux has a parent-death signal, so a
// command outlives a Smith that is killed outright here.
var parentDeathSignal syscall.Signal

// sweep does nothing without a subreaper.
func sweep(string, int, bool) {}
