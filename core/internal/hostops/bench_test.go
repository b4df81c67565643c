package hostops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/vcs"
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

// vcsContents keeps contents in a shadow repository, as the runtime does.
type vcsContents struct{ st *vcs.Store }

func (c vcsContents) Tree(ctx context.Context) (string, error) {
	id, err := c.st.Tree(ctx, 0)
	return id.String(), err
}

func (c vcsContents) Keep(b []byte) (string, error) {
	id, err := c.st.PutBlob(b)
	return id.String(), err
}

// BenchmarkJournaledEdit is an edit of a 4.6 KB file through the journal,
// without and with its contents kept in a shadow repository (what makes
// `smith session diff --effect` possible): the cost of keeping is the
// read before the edit, the read after it and two compressed blobs.
func BenchmarkJournaledEdit(b *testing.B) {
	for _, keep := range []bool{false, true} {
		name := "plain"
		if keep {
			name = "kept"
		}
		b.Run(name, func(b *testing.B) {
			f := setup(b, nil)
			path := filepath.Join(f.dir, "f.go")
			if keep {
				st, err := vcs.Open(b.TempDir(), f.dir, vcs.Options{})
				if err != nil {
					b.Fatal(err)
				}
				f.ops.Contents = vcsContents{st}
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				b.StopTimer()
				if err := os.WriteFile(path, []byte(strings.Repeat("func f() { return 42 }\n", 200)+fmt.Sprintf("// %d\n", n)), 0o644); err != nil {
					b.Fatal(err)
				}
				if _, _, err := f.ops.Read(context.Background(), f.inv, ReadArgs{Path: "f.go"}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, _, err := f.ops.Edit(context.Background(), f.inv, "f.go", fmt.Sprintf("// %d\n", n), fmt.Sprintf("// %d edited\n", n)); err != nil {
					b.Fatal(err)
				}
				n++
			}
		})
	}
}
