//go:build !linux

package rustdriver

import "os/exec"

// tether leaves cmd as it is: only Linux can tie a child's life to its
// parent's; elsewhere a driver ends when its stdin does.
func tether(cmd *exec.Cmd) *exec.Cmd { return cmd }
