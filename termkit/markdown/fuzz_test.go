package markdown

import (
	"testing"
)

var fuzzSeeds = []string{
	"", "# h\n\npara *em* **strong** ~~s~~ `c`\n", everyDoc, hostileDoc, refsDoc,
	"- a\n\n- b\n", "1. a\n\n2\n", "```\n\n```\npara\n\nx", "> q\n\nlazy\n> more",
	"| a | b |\n|---|---|\n| 1 | 2 |\nrow\n\nafter", "<!--\n\n-->\n\nx", "a\n===\n\nb\n---\n",
	"    code\n\n    more\n\nx", "- ```\n  ```\n\n- b\n", "日本語\t👩‍💻 e\u0301\x1b[31m\u009b",
}

func FuzzRender(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint8(30))
		f.Add(s, uint8(1))
	}
	th := DefaultTheme()
	f.Fuzz(func(t *testing.T, src string, w uint8) {
		width := int(w%120) + 1
		checkLines(t, Render(src, width, th), width)
	})
}

func FuzzStream(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint8(1), uint8(40))
		f.Add(s, uint8(7), uint8(20))
	}
	th := DefaultTheme()
	f.Fuzz(func(t *testing.T, src string, step, w uint8) {
		width := int(w%100) + 1
		n := int(step%32) + 1
		s := NewStream(th)
		for i := 0; i < len(src); i += n {
			sameLines(t, "prefix", s.Set(src[:i], width), Render(src[:i], width, th))
		}
		sameLines(t, "whole", s.Set(src, width), Render(src, width, th))
	})
}

func FuzzWrap(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint8(10))
	}
	f.Fuzz(func(t *testing.T, text string, w uint8) {
		width := int(w % 50)
		checkLines(t, Wrap([]Span{{Text: text}, {Text: text, Style: bold}}, width), max(width, 1))
	})
}
