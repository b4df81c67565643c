package jsonout_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// rustSources are the Rust files the tests build. rustc reads them in a
// subprocess, which go test's result cache does not watch; TestMain opens
// them so that a change to one reruns the tests.
var rustSources = []string{"jsonout.rs", "testdata/driver.rs"}

func TestMain(m *testing.M) {
	for _, p := range rustSources {
		f, err := os.Open(p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "jsonout: the tests need %s: %v\n", p, err)
			os.Exit(1)
		}
		f.Close()
	}
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// TestRustUnitTests runs jsonout.rs's own tests: escaping, float
// formatting, raw compaction and its errors (and encoding/json's texts
// for them), the Writer's commas, sorting
// and failure behaviour.
func TestRustUnitTests(t *testing.T) {
	rustdriver.RunTests(t, "testdata/driver.rs")
}
