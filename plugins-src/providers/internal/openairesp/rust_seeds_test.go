package openairesp_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/fuzz/FuzzRustDecoder from the recorded fixtures")

// seedDir holds FuzzRustDecoder's committed seed corpus.
const seedDir = "testdata/fuzz/FuzzRustDecoder"

// seedFile is the corpus file of a fixture: the body whole (no cuts) and
// the body with a cut every 7 bytes.
func seedFile(body []byte, cuts []byte) string {
	return fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n[]byte(%s)\n", strconv.Quote(string(body)), strconv.Quote(string(cuts)))
}

// TestFuzzSeeds checks that the committed seed corpus holds every
// recorded Responses stream, each whole and cut every 7 bytes; -update
// rewrites it.
func TestFuzzSeeds(t *testing.T) {
	for name, body := range recordedStreams(t) {
		base := strings.TrimSuffix(name, ".sse")
		seven := make([]byte, len(body)/7)
		for i := range seven {
			seven[i] = 7
		}
		for suffix, cuts := range map[string][]byte{"whole": nil, "cut7": seven} {
			path := filepath.Join(seedDir, "fixture-"+base+"-"+suffix)
			want := seedFile(body, cuts)
			if *update {
				if err := os.MkdirAll(seedDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil || string(got) != want {
				t.Errorf("openairesp: seed %s is missing or stale (%v); run go test -run TestFuzzSeeds -update", path, err)
			}
		}
	}
}
