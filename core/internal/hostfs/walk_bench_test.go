package hostfs

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkFind walks a tree of 1,303 files in 258 directories (depth 4)
// with a 20-line root .gitignore and a nested one in each top directory;
// two thirds of the files are ignored, 697 paths are found.
func BenchmarkFind(b *testing.B) {
	files := map[string]string{".gitignore": "*.o\n*.a\n*.log\n!keep.log\nbuild/\n/dist/\nnode_modules/\n.idea/\n*.swp\n*~\n" +
		"coverage.*\n*.py[cod]\n__pycache__/\nlogs/**/*.txt\n**/gen/*.pb.go\n.vscode/*\n!.vscode/settings.json\ntmp/\n*.test\n*.out\n"}
	for a := range 6 {
		files[fmt.Sprintf("d%d/.gitignore", a)] = "*.gen.go\n!/keep.gen.go\n"
		for c := range 6 {
			for d := range 6 {
				dir := fmt.Sprintf("d%d/e%d/f%d", a, c, d)
				for _, name := range []string{"a.go", "b.o", "c.log", "d.gen.go", "e.md", "f.pyc"} {
					files[dir+"/"+name] = ""
				}
			}
		}
	}
	root := writeTree(b, files)
	h, err := New(root)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := h.Find(ctx, root, "", "*", FindOptions{Limit: 100000})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Paths) != 697 {
			b.Fatalf("find returned %d paths", len(res.Paths))
		}
	}
}
