// Package hostops runs the built-in tools' host primitives (hostfs and
// hostproc) through the durable effect journal: each call records its
// intent — kind, canonical bounded input, causal parent (the tool call),
// plugin generation — before it touches anything, and its completion with
// the bounded output and the mutation state afterwards. If the intent
// cannot be recorded the primitive does not run.
//
// Intent inputs stay small: a write or edit records the path (as given and
// absolute) and the SHA-256 and size of the new text (the text itself is in
// the tool call's arguments, already in the session), never the content.
// The completions of read, write and edit lead with the file's real path
// and the SHA-256 of its whole content after the effect, from which
// [Ops.Recall] seeds a new process's stale-edit memory.
package hostops
