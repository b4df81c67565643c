package hostproc

import "os/exec"

// Shell is the shell that runs commands: bash from PATH, else /bin/sh.
func Shell() string {
	if shell, err := exec.LookPath("bash"); err == nil {
		return shell
	}
	return "/bin/sh"
}
