//go:build unix

package hostproc

import (
	"context"
	"testing"
)

// BenchmarkRunTrue is the cost of one command that does nothing: the
// shell's start and exit, the locked thread it is started on, and the sweep
// for descendants that left its group.
func BenchmarkRunTrue(b *testing.B) {
	dir := b.TempDir()
	for range b.N {
		if _, err := Run(context.Background(), "true", Options{Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}
