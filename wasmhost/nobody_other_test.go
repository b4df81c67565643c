//go:build !unix

package wasmhost

import "syscall"

// nobody is not needed where tests never run as root.
func nobody() *syscall.SysProcAttr { return nil }
