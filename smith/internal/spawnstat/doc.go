// Command spawnstat runs a command once and prints what it cost as one
// JSON line on standard error: wall time from start to exit, user and
// system CPU time, peak RSS and minor page faults. The command's own
// output goes to spawnstat's standard output (its standard error too);
// spawnstat exits with the command's status.
//
// It exists because a Go program cannot measure a child's peak RSS
// itself: os/exec starts children with vfork semantics, and Linux records
// the parent's high-water RSS as the child's own when the child execs, so
// ru_maxrss of a child of a large test binary is the test binary's peak.
// A small launcher keeps that floor at its own ~2 MiB. smith's benchmarks
// (bench_test.go) build and run it.
//
// Usage:
//
//	spawnstat BINARY [ARG...]
package main
