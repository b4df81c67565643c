package sessionfmt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// goldenBytes encodes the representative session in memory (no file
// system), so the hash depends only on the encoder.
func goldenBytes(t testing.TB) []byte {
	s := New()
	for _, e := range representative(t, 400) {
		if err := s.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	w := bufioWriter(&buf)
	if err := s.writeFile(w, DefaultMaxPayload); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	return buf.Bytes()
}

func goldenHash(t testing.TB) string {
	sum := sha256.Sum256(goldenBytes(t))
	return hex.EncodeToString(sum[:])
}

// TestGoldenHash pins the bytes written for a fixed session — CBOR
// encoding, compression decisions and zstd output included. A change means
// files written by this version differ from those of the last: it must come
// with a format version bump or a RATIONALE.md entry. Refresh with -update.
func TestGoldenHash(t *testing.T) {
	b := goldenBytes(t)
	if bytes.Count(b, []byte{0x28, 0xb5, 0x2f, 0xfd}) == 0 {
		t.Fatal("the golden session has no compressed frame; it must cover zstd")
	}
	got := goldenHash(t)
	path := filepath.Join("testdata", "golden-session.sha256")
	if *update {
		if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGoldenHash -update to create it)", err)
	}
	if got != strings.TrimSpace(string(want)) {
		t.Fatalf("session bytes changed: sha256 %s, golden %s", got, want)
	}
	// The same within this process at other GOMAXPROCS settings.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, n := range []int{1, 2, 4, 16} {
		runtime.GOMAXPROCS(n)
		if h := goldenHash(t); h != got {
			t.Fatalf("GOMAXPROCS=%d in process: %s, want %s", n, h, got)
		}
	}
}

// TestGoldenHashAcrossProcesses re-runs the encoder in fresh processes with
// different GOMAXPROCS values.
func TestGoldenHashAcrossProcesses(t *testing.T) {
	if os.Getenv("SESSIONFMT_PRINT_GOLDEN") == "1" {
		fmt.Println("golden=" + goldenHash(t))
		return
	}
	want := goldenHash(t)
	for _, n := range []string{"1", "2", "8"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGoldenHashAcrossProcesses$", "-test.count=1")
		cmd.Env = append(os.Environ(), "SESSIONFMT_PRINT_GOLDEN=1", "GOMAXPROCS="+n)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child GOMAXPROCS=%s: %v\n%s", n, err, out)
		}
		if !strings.Contains(string(out), "golden="+want) {
			t.Fatalf("child GOMAXPROCS=%s printed %s, want hash %s", n, out, want)
		}
	}
}
