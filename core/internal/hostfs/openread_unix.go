//go:build unix

package hostfs

import "syscall"

// nonBlocking opens without waiting: opening a FIFO for reading otherwise
// blocks until a writer appears, which may be never.
const nonBlocking = syscall.O_NONBLOCK
