package markdown

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sameLines fails t when got and want differ, showing the first
// difference.
func sameLines(t testing.TB, what string, got, want []Line) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	for i := range max(len(got), len(want)) {
		var g, w Line
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: line %d of %d/%d differs:\n got %#v\nwant %#v", what, i, len(got), len(want), g, w)
		}
	}
	t.Fatalf("%s: lines differ", what)
}

func TestStreamMatchesRender(t *testing.T) {
	docs := map[string]string{"every": everyDoc, "hostile": hostileDoc, "refs": refsDoc}
	for name, doc := range docs {
		for _, width := range []int{80, 30} {
			t.Run(fmt.Sprintf("%s/%d", name, width), func(t *testing.T) {
				th := DefaultTheme()
				s := NewStream(th)
				step := 1
				if testing.Short() || width == 80 {
					step = 5
				}
				for i := 0; i <= len(doc); i += step {
					sameLines(t, fmt.Sprintf("prefix %d %q", i, doc[max(0, i-20):i]), s.Set(doc[:i], width), Render(doc[:i], width, th))
				}
				sameLines(t, "whole", s.Set(doc, width), Render(doc, width, th))
			})
		}
	}
}

// refsDoc uses a link reference defined after its use.
const refsDoc = "See [the docs][d] and [x].\n\nMore text.\n\n- a list\n\n[d]: https://example.com/docs\n\nTail [d].\n"

func TestStreamCaches(t *testing.T) {
	th := DefaultTheme()
	s := NewStream(th)
	s.Set(everyDoc, 80)
	if len(s.pre) < len(everyDoc)/2 {
		t.Fatalf("stable prefix is %d bytes of %d; want most of the document", len(s.pre), len(everyDoc))
	}
	pre := s.pre
	s.Set(everyDoc+"more", 80)
	if s.pre != pre {
		t.Errorf("prefix changed on a plain append: %q → %q", pre, s.pre)
	}
	s.Set(everyDoc, 60)
	if s.width != 60 {
		t.Errorf("width change kept width %d", s.width)
	}
	sameLines(t, "after width change", s.Set(everyDoc, 60), Render(everyDoc, 60, th))
	sameLines(t, "after an edit", s.Set("# other\n\ntext", 60), Render("# other\n\ntext", 60, th))

	s.Set(refsDoc, 80)
	if s.pre != "" {
		t.Errorf("a document with link references must not be cached, prefix %q", s.pre)
	}
}

func TestStreamReusesClosedFence(t *testing.T) {
	th := DefaultTheme()
	s := NewStream(th)
	src := "```go\nfunc f() {}\n```\ntext right after the fence"
	first := s.Set(src, 40)
	if len(s.code.m) != 1 {
		t.Fatalf("code cache holds %d blocks, want 1", len(s.code.m))
	}
	second := s.Set(src+" grows", 40)
	if &first[1][0] != &second[1][0] {
		t.Errorf("the closed fence was laid out again")
	}
	sameLines(t, "reused fence", second, Render(src+" grows", 40, th))
}

// answer returns a markdown answer of at least n bytes mixing prose,
// lists, code and tables.
func answer(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Section %d\n\n", i)
		fmt.Fprintf(&b, "Paragraph %d explains the change with **bold** and `code`, a [link](https://example.com/%d)\nand enough words to wrap across a couple of lines in a normal terminal window.\n\n", i, i)
		b.WriteString("- first point about the design\n- second point, which is longer and wraps at eighty columns for sure\n  - nested detail\n\n")
		fmt.Fprintf(&b, "```go\nfunc f%d(x int) int {\n\t// comment\n\treturn x * %d\n}\n```\n\n", i, i)
		if i%3 == 0 {
			b.WriteString("| key | value |\n|-----|-------|\n| a | 1 |\n| b | a longer value |\n\n")
		}
	}
	return b.String()
}

func TestStreamAllocsPerDelta(t *testing.T) {
	th := DefaultTheme()
	doc := answer(20 << 10)
	s := NewStream(th)
	s.Set(doc, 80)
	i := 0
	delta := testing.AllocsPerRun(20, func() {
		i++
		s.Set(doc+strings.Repeat("word ", i), 80)
	})
	full := testing.AllocsPerRun(2, func() { Render(doc, 80, th) })
	if delta*10 > full {
		t.Errorf("a streamed delta allocates %.0f times, a full render %.0f; want the delta ten times cheaper", delta, full)
	}
}

// fragments are the pieces TestStreamRandomDocs builds documents from:
// constructs that continue across blank lines, lazy lines, fences, and
// the lines that end them.
var fragments = []string{
	"para text", "more words here", "- item", "  - nested", "1. one", "2) two", "10. ten", "  continued",
	"    indented code", "```go", "```", "~~~", "> quote", ">", "lazy line", "| a | b |", "|---|---|",
	"| 1 | 2 |", "---", "===", "# h1", "### h3", "<div>", "</div>", "<!--", "-->", "<pre>", "</pre>",
	"[x]: /url", "see [x]", "- [ ] task", "***", "\t tab", "e\u0301 日本 👩‍💻", "\x1b[31m", "* star",
	"+ plus", "  ```", "   > deep", "- ```", "1.", "-", "",
}

func TestStreamRandomDocs(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 20
	}
	th := DefaultTheme()
	rng := uint64(1)
	next := func(k int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int((rng >> 33) % uint64(k))
	}
	for d := range n {
		var b strings.Builder
		for range 5 + next(25) {
			b.WriteString(fragments[next(len(fragments))])
			if next(3) == 0 {
				b.WriteString("\n")
			}
			b.WriteString("\n")
		}
		doc := b.String()
		width := 5 + next(60)
		step := 1 + next(9)
		s := NewStream(th)
		for i := 0; i <= len(doc); i += step {
			sameLines(t, fmt.Sprintf("doc %d %q prefix %d width %d", d, doc, i, width), s.Set(doc[:i], width), Render(doc[:i], width, th))
		}
	}
}
