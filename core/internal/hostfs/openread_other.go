//go:build !unix

package hostfs

// nonBlocking is no flag where opening a file never waits for a writer.
const nonBlocking = 0
