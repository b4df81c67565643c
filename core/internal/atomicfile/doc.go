// Package atomicfile replaces small files atomically for core's own state
// (the auth file, smith.kdl): the content goes to a temporary file in the
// destination directory, which is synced and renamed over the destination,
// and the directory is synced, so after a crash the path holds either its
// old content or the complete new content. sessionfmt has its own (a
// streaming writer for session files) because core cannot import another
// module's internal packages.
package atomicfile
