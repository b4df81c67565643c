package termtest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/termkit/screen"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden files with the current output")

const styleLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// Frame describes b as text: its rows between bars, then one row of style
// letters per row ('.' for the default style, one letter per column, the
// same letter for both halves of a wide cell), then the legend of the
// letters. It is the format of golden files.
func Frame(b *screen.Buffer) string {
	var sb strings.Builder
	sb.WriteString("-- text --\n")
	for y := 0; y < b.Height(); y++ {
		sb.WriteByte('|')
		for _, c := range b.Row(y) {
			sb.WriteString(c.Content)
		}
		sb.WriteString("|\n")
	}
	letters := map[screen.Style]byte{}
	var legend []string
	sb.WriteString("-- style --\n")
	for y := 0; y < b.Height(); y++ {
		sb.WriteByte('|')
		var last byte = '.'
		for _, c := range b.Row(y) {
			if c.Width == 0 {
				sb.WriteByte(last)
				continue
			}
			l := byte('.')
			if c.Style != (screen.Style{}) {
				var ok bool
				if l, ok = letters[c.Style]; !ok {
					l = '?'
					if len(legend) < len(styleLetters) {
						l = styleLetters[len(legend)]
					}
					letters[c.Style] = l
					legend = append(legend, string(l)+" = "+c.Style.String())
				}
			}
			sb.WriteByte(l)
			last = l
		}
		sb.WriteString("|\n")
	}
	if len(legend) > 0 {
		sb.WriteString("-- legend --\n")
		sb.WriteString(strings.Join(legend, "\n"))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Golden compares [Frame](b) with testdata/<test name>.golden and fails tb
// with both texts when they differ. With -update it writes the file
// instead (creating directories as needed).
func Golden(tb testing.TB, b *screen.Buffer) {
	tb.Helper()
	GoldenString(tb, Frame(b))
}

// GoldenString is [Golden] for an already formatted text.
func GoldenString(tb testing.TB, got string) {
	tb.Helper()
	path := filepath.Join("testdata", filepath.FromSlash(tb.Name())+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatalf("termtest: create golden directory: %v", err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			tb.Fatalf("termtest: write golden file: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("termtest: read golden file: %v (run `go test -run '%s' -update` to create it)", err, tb.Name())
	}
	if string(want) != got {
		tb.Errorf("termtest: frame differs from %s (run with -update to accept)\n--- got\n%s--- want\n%s", path, got, want)
	}
}
