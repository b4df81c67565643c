package session

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// TestHelperCreateNamed is a child process of TestNameRace: it creates the
// session named by SESSION_RACE_NAME in SESSION_RACE_DIR and reports.
func TestHelperCreateNamed(t *testing.T) {
	dir := os.Getenv("SESSION_RACE_DIR")
	if dir == "" {
		return // not a child
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := d.Create(os.Getenv("SESSION_RACE_NAME"))
	if err != nil {
		os.Stdout.WriteString("ERR " + err.Error() + "\n")
		return
	}
	f.Close()
	os.Stdout.WriteString("OK\n")
}

// TestNameRace: processes creating one name at once get exactly one
// session; every other gets the "is taken" error.
func TestNameRace(t *testing.T) {
	dir := t.TempDir()
	const n = 6
	var wg sync.WaitGroup
	outs := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCreateNamed$")
			cmd.Env = append(os.Environ(), "SESSION_RACE_DIR="+dir, "SESSION_RACE_NAME=shared")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("child %d: %v\n%s", i, err, out)
			}
			outs[i] = string(out)
		}()
	}
	wg.Wait()
	oks, taken := 0, 0
	for _, o := range outs {
		switch {
		case strings.HasPrefix(o, "OK"):
			oks++
		case strings.Contains(o, `name "shared" is taken by session`):
			taken++
		default:
			t.Errorf("child said %q", o)
		}
	}
	d, _ := OpenDir(dir)
	all, err := d.List()
	if err != nil {
		t.Fatal(err)
	}
	if oks != 1 || taken != n-1 || len(all) != 1 || all[0].Name != "shared" {
		t.Errorf("%d created, %d refused, sessions %+v; want 1, %d, one named shared", oks, taken, all, n-1)
	}
}

// TestFindDuplicateName: a name two sessions share (made before names were
// claimed atomically) is ambiguous, never silently the oldest.
func TestFindDuplicateName(t *testing.T) {
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 2 {
		f, info, err := d.create("twin")
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		ids = append(ids, info.ID)
	}
	_, err = d.Find("twin")
	if err == nil || !strings.Contains(err.Error(), `2 sessions are named "twin" (`+ids[0]+", "+ids[1]+")") {
		t.Fatalf("Find = %v", err)
	}
	if got, err := d.Find(ids[1]); err != nil || got.ID != ids[1] {
		t.Fatalf("Find by id = %+v, %v", got, err)
	}
}
