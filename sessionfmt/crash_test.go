package sessionfmt

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const crashChildEnv = "SESSIONFMT_CRASH_CHILD"

// TestKilledWriter kills a writer process in the middle of appending and
// checks that the session reopens with every acknowledged entry, in order,
// and accepts new appends.
func TestKilledWriter(t *testing.T) {
	if p := os.Getenv(crashChildEnv); p != "" {
		w, err := Open(p, &Options{WaitLock: true})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(3)
		}
		var prev ID
		big := mustContent(t, strings.Repeat("output line that compresses well\n", 200))
		for i := 0; ; i++ {
			c := big
			if i%3 != 0 {
				c = mustContent(t, i)
			}
			id := NewID()
			if err := w.Append(Entry{ID: id, Parent: prev, Time: testEpoch, Kind: KindMessage, Content: c}, Buffered); err != nil {
				fmt.Println("error:", err)
				os.Exit(3)
			}
			prev = id
			fmt.Println(id) // acknowledged
		}
	}
	p := filepath.Join(t.TempDir(), "crash.session")
	f, err := Create(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var acked []string
	for len(acked) < 300 && sc.Scan() {
		if strings.HasPrefix(sc.Text(), "error:") {
			t.Fatal(sc.Text())
		}
		acked = append(acked, sc.Text())
	}
	cmd.Process.Kill()
	for sc.Scan() {
		acked = append(acked, sc.Text())
	}
	cmd.Wait()

	w, err := Open(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	s := w.Session()
	if s.Len() < len(acked) {
		t.Fatalf("%d entries recovered, %d were acknowledged", s.Len(), len(acked))
	}
	for i, id := range acked {
		if s.ID(i).String() != id || (i > 0 && s.Parent(i) != i-1) {
			t.Fatalf("entry %d is %s, want %s in one chain", i, s.ID(i), id)
		}
	}
	if err := w.Append(Entry{ID: NewID(), Parent: s.ID(s.Len() - 1), Time: testEpoch, Kind: KindMessage, Content: mustContent(t, "after the crash")}, Durable); err != nil {
		t.Fatal(err)
	}
	t.Logf("writer killed after %d acknowledged appends; %d recovered; report %+v", len(acked), s.Len(), w.Report())
}
