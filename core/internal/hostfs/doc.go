// Package hostfs holds the file primitives behind the built-in read, write
// and edit tools. Every path is resolved against the invocation's working
// directory (never the process's), and every access goes through an
// [os.Root] of an allowed root, so neither "..", an absolute path, nor a
// symbolic link can reach outside the roots (the kernel resolves each
// component beneath the root; a check-then-open race cannot escape).
//
// Reads return bounded line windows and refuse binary content; writes create
// parent directories and replace files atomically (temporary file, fsync,
// rename, directory fsync), through a symbolic link its target, keeping the
// link; edits apply one exact replacement, reject
// missing or ambiguous matches, and reject stale input — a file that changed
// since this FS last read or wrote it. That memory is keyed by the file's
// real path (symbolic links resolved) and can be seeded from an earlier
// process with [FS.Recall] and [FS.Doubt].
//
// Every failure is an *[Error] carrying the mutation state: not_applied
// unless the change was committed (renamed into place).
package hostfs
