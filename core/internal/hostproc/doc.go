// Package hostproc runs the bash tool's commands: in an explicit working
// directory, in their own process group, with a timeout, cancellation that
// terminates the whole group (SIGTERM, then SIGKILL after a grace period),
// a bounded output buffer that keeps the last bytes and says how many were
// dropped, and the exit status. Output still in the pipes when the shell
// exits, or written by its children shortly after, is collected before the
// result is returned (within Options.DrainDelay); then any process left in
// the group is killed.
//
// On Linux a command's processes also die when they leave its group: the
// process becomes a child subreaper at its first command, every process a
// command starts carries the command's run id in its environment
// (SMITH_TOOL_RUN), and when the command ends the processes reparented
// here that carry it — setsid sessions, double-forked daemons, and their
// groups — are killed and reaped. The shell gets SIGKILL as its
// parent-death signal, so it dies with a Smith that is killed outright,
// and what the shell started dies by the guard: a small shell started at
// the first command, deaf to terminal signals, that waits on a pipe only
// Smith holds and, when Smith is gone however it ended, kills every
// process carrying Smith's run-id prefix (one grep over /proc). A process
// that clears its environment escapes the guard. On other Unix systems
// setsid descendants outlive the command, and a command outlives a Smith
// killed outright.
//
// Run is implemented for Unix (process groups and signals).
package hostproc
