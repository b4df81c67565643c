//go:build unix

package wasmhost

import "syscall"

// nobody runs a child process as user and group 65534.
func nobody() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
}
