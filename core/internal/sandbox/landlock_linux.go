//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock file-system rights, by the ABI that introduced them.
const (
	fsRightsV1 = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	fsRead = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR |
		unix.LANDLOCK_ACCESS_FS_EXECUTE
	// fsFile are the rights a rule on a file (not a directory) may grant.
	fsFile = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE |
		unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	netTCP = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
)

// handledFS is every file-system right Landlock ABI abi knows, up to ABI
// 5 (IOCTL_DEV); later rights are left unhandled (allowed).
func handledFS(abi int) uint64 {
	r := uint64(fsRightsV1)
	if abi >= 2 {
		r |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		r |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		r |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return r
}

// rulesetAttr is struct landlock_ruleset_attr up to handled_access_net
// (ABI 4); a kernel with a shorter struct accepts the zero tail.
type rulesetAttr struct {
	fs, net uint64
}

// devices are writable in every mode, where present: shells write to
// /dev/null constantly, and commands to their terminal. /dev/stdout and
// /dev/stderr are absent on purpose: a rule would follow them to this
// process's own output, and a command's are pipes, which Landlock never
// restricts (and its terminal is under /dev/pts).
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"}

// probe asks the kernel for its Landlock ABI version.
func probe() Info {
	abi, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return Info{Reason: unavailable(e)}
	}
	return Info{Available: true, Mechanism: "landlock", ABI: int(abi), Network: abi >= 4}
}

// unavailable says why the Landlock version query failed with e.
func unavailable(e unix.Errno) string {
	name := unix.ErrnoName(e)
	if e == unix.EOPNOTSUPP {
		name = "EOPNOTSUPP" // the kernel's name; ErrnoName says ENOTSUP, the same number
	}
	call := "landlock_create_ruleset: " + name
	switch e {
	case unix.ENOSYS:
		return "Landlock is not enabled in this kernel (" + call + ")"
	case unix.EOPNOTSUPP:
		return "Landlock is built into this kernel but disabled at boot; add landlock to the lsm= kernel parameter (" + call + ")"
	case unix.EPERM:
		return "Landlock is blocked here, probably by a seccomp filter (" + call + ")"
	}
	return "Landlock is not usable here (" + call + ")"
}

// RestrictThread restricts the calling OS thread, and every process it
// starts afterwards, to p, for good: reads and execution everywhere,
// writes only where p allows, and no TCP when p.Network is false and the
// kernel can enforce it (Landlock ABI 4). The caller must have locked its
// goroutine to the thread (runtime.LockOSThread) and must let the
// goroutine exit without unlocking it, so that the thread dies with the
// goroutine (the main thread is parked for good instead) and the Go
// runtime never runs anything else on it; the other threads of the
// process are not restricted, and threads the runtime starts later are
// cloned from an unrestricted one. Calls on different threads are
// independent (safe for concurrent use). An Off policy does nothing.
// The error names the step that failed; the thread may then be partly
// restricted (no_new_privs) and must still not be unlocked.
func (p Policy) RestrictThread() error {
	if err := p.check(); err != nil {
		return err
	}
	if !p.enabled() {
		return nil
	}
	info := Probe()
	if !info.Available {
		return fmt.Errorf("sandbox: %s", info.Reason)
	}
	attr := rulesetAttr{fs: handledFS(info.ABI)}
	if !p.Network && info.Network {
		attr.net = netTCP // handled with no rule: every bind and connect is denied
	}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return fmt.Errorf("sandbox: landlock_create_ruleset: %w", e)
	}
	ruleset := int(fd)
	defer unix.Close(ruleset)

	if err := allow(ruleset, "/", fsRead&attr.fs); err != nil {
		return err
	}
	writable := p.writes()
	if m, _ := p.mode(); m == WorkspaceWrite {
		writable = append(writable, os.TempDir(), "/dev/shm")
	}
	for _, path := range append(writable, devices...) {
		if err := allow(ruleset, path, attr.fs); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); e != 0 {
		return fmt.Errorf("sandbox: landlock_restrict_self: %w", e)
	}
	return nil
}

// allow adds a rule granting access beneath path (on path alone when it is
// not a directory, limited to the rights a file can have). A path that
// does not exist is skipped.
func allow(ruleset int, path string, access uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sandbox: open %s for a rule: %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("sandbox: stat %s for a rule: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= fsFile
	}
	if access == 0 {
		return nil
	}
	rule := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(fd)}
	if _, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0); e != 0 {
		return fmt.Errorf("sandbox: landlock_add_rule for %s: %w", path, e)
	}
	return nil
}
