package hostops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkJournaledRead is the read primitive through the journal (intent
// and completion into an in-memory store); compare with hostfs's
// BenchmarkRead for the journal's share of a tool call.
func BenchmarkJournaledRead(b *testing.B) {
	f := setup(b, nil)
	if err := os.WriteFile(filepath.Join(f.dir, "f.go"), []byte(strings.Repeat("func f() { return 42 }\n", 200)), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := f.ops.Read(context.Background(), f.inv, ReadArgs{Path: "f.go", Offset: 10, Limit: 50}); err != nil {
			b.Fatal(err)
		}
	}
}
