package sessionfmt

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLockFileRemovedAndExclusive: closing a session removes its lock
// file, and writers that open and close one session in turn, waiting for
// each other, are never two at once although each release removes the
// file the next is waiting on.
func TestLockFileRemovedAndExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.session")
	f, err := Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Fatalf("lock file after Close: %v", err)
	}
	var holders, most atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				f, err := Open(path, &Options{WaitLock: true})
				if err != nil {
					t.Error(err)
					return
				}
				if n := holders.Add(1); n > most.Load() {
					most.Store(n)
				}
				time.Sleep(200 * time.Microsecond) // hold it a while
				holders.Add(-1)
				if err := f.Close(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d writers held the session at once", most.Load())
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Fatalf("lock file left: %v", err)
	}
}
