// Package vcs keeps snapshots of a worktree in a shadow git repository, so
// that Smith can diff, undo, redo and restore what a session changed —
// what the edit tool wrote and what bash did alike — without a git
// executable, while `git --git-dir=<store> log` can still read it.
//
// # The store
//
// A [Store] is a bare repository in git's own format (HEAD, config,
// objects/, refs/), written by hand: loose zlib-compressed objects in the
// default SHA-1 object format — blobs (file content, or a symlink's
// target), trees (modes 100644, 100755, 120000 and 40000, git's order) and
// commits. `git fsck --strict` accepts it. Nothing is ever packed or
// deleted; do not run git gc or repack on the store, which would move
// objects where this package does not read. The runtime keeps one store
// per worktree under Smith's data directory.
//
// A snapshot tracks the files git would: not ignored by nested .gitignore
// files (Smith's own matcher, held to git check-ignore) or by
// [Options.Ignore], not in a ".git", not the store itself, and at most
// [Options.MaxFileSize] bytes — larger files are listed in
// [Snapshot.Skipped] and in the commit message. Symlinks are stored as
// symlinks and never followed; the executable bit is kept; empty
// directories are not. A stat cache (smith-index in the store: path,
// size, mtime, ctime, inode, mode → blob id, and the tree id of each
// directory) lets a snapshot skip reading files whose stat did not change
// and rewriting trees of directories that did not; the worktree is listed
// with getdents and lstat'd relative to each directory's descriptor on
// Linux, several directories at a time. Files modified within two seconds of a
// scan are hashed again by the next one, as file system clocks can be
// coarse.
//
// # Refs
//
// Each snapshot is a commit whose message names the session and the
// session entry that caused it ("Cause: …"). For session S:
//
//	refs/smith/S/1, refs/smith/S/2, …  one ref per snapshot, in the order taken
//	refs/smith/S/head                   the snapshot the worktree is at: the
//	                                    last one taken or restored to
//
// A snapshot's parent is the head it was taken on, so after an undo the
// next snapshot starts a branch and the undone snapshots stay reachable
// through their numbered refs. `git log refs/smith/S/head` shows the
// lineage of the current state; `git log --glob='refs/smith/S/*'` shows all.
//
// # Restores
//
// Undo, redo and restore are planned as an [Op] — plain data the runtime
// journals as a durable effect — and run by [Store.Apply], which refuses
// with a [*ConflictError] naming the files when the worktree no longer
// matches the snapshot the Op expects (unless forced), writes each file
// through a temporary file renamed into place, deletes only tracked files,
// and moves the head.
//
// # Durability and concurrency
//
// Every file the store writes (objects, refs, the stat cache) is written
// to a temporary file and renamed, so a concurrent reader sees the old or
// the new version, never part of one. Objects and refs are synced before a
// ref names them, unless [Options.NoSync]. Snapshot numbers are claimed
// with an exclusive hard link, so concurrent writers never share one.
// Snapshot, DiffWorktree and Apply serialize on a lock file (smith.lock)
// across processes; reading methods take no lock. A [Store] is safe for
// concurrent use.
//
// # Getting Started
//
//	st, err := vcs.Open(filepath.Join(dataDir, "vcs", worktreeKey), worktree, vcs.Options{})
//	pre, err := st.Snapshot(ctx, vcs.SnapshotRequest{Session: sid, Cause: "entry 01J… (turn 3 start)"})
//	// … the turn runs tools, bash included …
//	post, err := st.Snapshot(ctx, vcs.SnapshotRequest{Session: sid, Cause: "entry 01J… (turn 3 end)"})
//	changes, err := st.Diff(pre.ID, post.ID)
//	op, err := st.PlanUndo(sid, "entry 01J… (/undo)") // journal op as the effect's intent
//	restored, err := st.Apply(ctx, op)                 // journal restored as its completion
package vcs
