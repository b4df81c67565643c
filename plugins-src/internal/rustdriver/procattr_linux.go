package rustdriver

import (
	"os/exec"
	"syscall"
)

// tether makes cmd die with the test process: a fuzz worker killed at
// the end of -fuzztime leaves no compiler or driver behind.
func tether(cmd *exec.Cmd) *exec.Cmd {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}
