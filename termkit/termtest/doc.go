// Package termtest holds test helpers for terminal user interfaces: an
// in-memory [Emulator] that plays renderer output back into a
// [screen.Buffer], and [Golden], which compares a buffer's text and
// attributes with testdata/<TestName>.golden and rewrites the file when the
// test binary runs with -update.
//
// # Getting Started
//
//	func TestStatus(t *testing.T) {
//		buf := screen.NewBuffer(20, 1)
//		widget.Status{Left: "ready"}.Draw(buf, buf.Bounds())
//		termtest.Golden(t, buf)
//	}
//
// Refresh goldens with `go test ./... -update` and review the diff.
//
// # Concurrency
//
// An Emulator is not safe for concurrent use. Golden may be called from
// parallel tests with distinct names.
package termtest
