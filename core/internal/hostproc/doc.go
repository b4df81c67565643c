// Package hostproc runs the bash tool's commands: in an explicit working
// directory, in their own process group, with a timeout, cancellation that
// terminates the whole group (SIGTERM, then SIGKILL after a grace period),
// a bounded output buffer that keeps the last bytes and says how many were
// dropped, and the exit status. Output still in the pipes when the shell
// exits, or written by its children shortly after, is collected before the
// result is returned (within Options.DrainDelay); then any process left in
// the group is killed.
//
// Run is implemented for Unix (process groups and signals).
package hostproc
