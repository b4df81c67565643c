package sessionfmt

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const lockChildEnv = "SESSIONFMT_LOCK_CHILD"

// lockChild appends n entries to the session at path, reopening it under the
// writer lock for each one and chaining each entry to the current leaf.
func lockChild(path string, who, n int) error {
	c, err := EncodeContent(map[string]int{"writer": who})
	if err != nil {
		return err
	}
	for i := range n {
		w, err := Open(path, &Options{WaitLock: true})
		if err != nil {
			return err
		}
		s := w.Session()
		var parent ID
		if s.Len() > 0 {
			parent = s.ID(s.Len() - 1)
		}
		e := Entry{ID: NewID(), Parent: parent, Time: testEpoch, Kind: KindMessage, Key: fmt.Sprintf("w%d-%04d", who, i), Content: c}
		if err := w.Append(e, Buffered); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

// TestTwoProcessesAppend runs two real processes appending to one session
// at once. The lock must serialise them: every frame intact, none lost, and
// each writer sees the other's appends (each entry's parent is the entry
// written just before it, whoever wrote it).
func TestTwoProcessesAppend(t *testing.T) {
	if v := os.Getenv(lockChildEnv); v != "" {
		parts := strings.SplitN(v, ":", 3)
		who, _ := strconv.Atoi(parts[0])
		n, _ := strconv.Atoi(parts[1])
		if err := lockChild(parts[2], who, n); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		return
	}
	const n = 100
	p := filepath.Join(t.TempDir(), "shared.session")
	f, err := Create(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for who := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestTwoProcessesAppend$", "-test.count=1")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d:%d:%s", lockChildEnv, who, n, p))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[who] = fmt.Errorf("writer %d: %v\n%s", who, err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, rep, err := Load(p, nil)
	if err != nil || rep.Damaged() {
		t.Fatalf("load: %v %+v", err, rep)
	}
	if s.Len() != 2*n {
		t.Fatalf("%d entries, want %d: frames were lost", s.Len(), 2*n)
	}
	next := [2]int{}
	switches := 0
	for i := range s.Len() {
		e := s.Entry(i)
		var who, seq int
		if _, err := fmt.Sscanf(e.Key, "w%d-%d", &who, &seq); err != nil || seq != next[who] {
			t.Fatalf("entry %d key %q: writer order broken (want seq %d)", i, e.Key, next[who])
		}
		next[who]++
		if i > 0 {
			if s.Parent(i) != i-1 {
				t.Fatalf("entry %d: parent index %d, want %d: a writer did not see the other's append", i, s.Parent(i), i-1)
			}
			if s.Entry(i - 1).Key[1] != e.Key[1] {
				switches++
			}
		}
	}
	t.Logf("%d entries, writers alternated %d times", s.Len(), switches)
}

func TestSecondWriterRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "one.session")
	f, err := Create(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := Open(p, nil); err == nil || !strings.Contains(err.Error(), "open for writing by another process") {
		t.Fatalf("second writer: %v", err)
	}
	if _, err := Create(p, nil); err == nil {
		t.Fatal("Create over an open session succeeded")
	}
	// Readers do not take the lock.
	if _, _, err := Load(p, nil); err != nil {
		t.Fatal(err)
	}
}
