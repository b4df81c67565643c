// Package sandbox confines the processes the bash tool starts: what they
// may write and whether they may use the network. Reading stays allowed
// everywhere; a [Policy] names the mode ([WorkspaceWrite], [ReadOnly] or
// [Off]), the directories a WorkspaceWrite process may write (the working
// roots, the temp dir and configured extra paths) and whether the network
// is allowed.
//
// On Linux the mechanism is Landlock, used directly through system calls
// (no cgo, no helper binary). Landlock restricts the calling thread and
// everything it starts afterwards, so [Policy.RestrictThread] is called on
// a goroutine locked to its OS thread that starts the command and then
// exits without unlocking: the restricted thread dies with it, and no
// other thread of the process is restricted. The rights handled are those
// of the Landlock ABI the kernel offers (ABI 1 base rights; 2 refer, for
// renames and links across directories; 3 truncate; 5 device ioctl);
// rights of later ABIs stay unrestricted. With ABI 1 a rename or link into
// another directory is always denied (a Landlock limit). The network
// restriction (ABI 4 and later) denies binding and connecting TCP sockets;
// UDP and Unix sockets stay allowed. On an older kernel the network stays
// open and [Policy.Describe] says so.
//
// On macOS the command runs under /usr/bin/sandbox-exec with the SBPL
// profile [Policy.Profile] builds: everything allowed except file writes
// outside the writable paths, and all network use (Unix sockets included)
// when the network is denied.
//
// Other platforms have no sandbox: [Probe] reports it unavailable, and a
// command whose policy asks for one runs unsandboxed with a visible note
// ([Policy.Describe]).
package sandbox
