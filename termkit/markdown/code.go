package markdown

import (
	"strings"

	"github.com/smith-agent/smith/termkit/screen"
)

// codeTab is the tab stop distance inside code blocks.
const codeTab = 4

// codeIndent is how far code blocks are indented.
const codeIndent = "  "

// codeBlock lays out a code block at width: a label line when lang is
// set, then each source line highlighted, indented, cut with "…" when too
// long. A Stream reuses the lines of blocks it laid out before.
func (r *renderer) codeBlock(lang, body string, width int) []Line {
	if r.code != nil {
		if ls, ok := r.code.get(lang, body, width); ok {
			return ls
		}
	}
	ls := layoutCode(lang, body, width, r.th)
	if r.code != nil {
		r.code.put(lang, body, width, ls)
	}
	return ls
}

func layoutCode(lang, body string, width int, th Theme) []Line {
	pad := codeIndent
	if width < 2*len(codeIndent) {
		pad = ""
	}
	cw := width - len(pad)
	var out []Line
	if lang != "" {
		out = append(out, Line{{Text: pad + screen.Truncate(lang, cw, "…"), Style: th.CodeLabel}})
	}
	for _, l := range highlight(lang, body, th) {
		if l.Width() > cw {
			l = append(clip(l, cw-1), Span{Text: "…", Style: th.CodeLabel})
		}
		if pad != "" && len(l) > 0 {
			l = append(Line{{Text: pad}}, l...)
		}
		out = append(out, l)
	}
	return out
}

// highlight splits body into lines of styled spans: tokens coloured by
// the theme's syntax styles when lang has a lexer (syntax.go), tabs
// expanded, text sanitized.
func highlight(lang, body string, th Theme) []Line {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.TrimSuffix(body, "\n")
	if body == "" {
		return nil
	}
	n := strings.Count(body, "\n") + 1
	var toks [][]Span
	if lang != "" {
		toks = tokenize(lang, body, n, th)
	}
	if toks == nil {
		for ln := range strings.SplitSeq(body, "\n") {
			toks = append(toks, []Span{{Text: ln, Style: th.CodeBlock}})
		}
	}
	out := make([]Line, len(toks))
	for i, t := range toks {
		out[i] = codeLine(t)
	}
	return out
}

// codeLine expands tabs to stops every codeTab columns and sanitizes.
func codeLine(toks []Span) Line {
	col := 0
	var l Line
	for _, t := range toks {
		s := t.Text
		var b strings.Builder
		for {
			part, rest, tab := strings.Cut(s, "\t")
			p := screen.Sanitize(part)
			b.WriteString(p)
			col += screen.Width(p)
			if !tab {
				break
			}
			k := codeTab - col%codeTab
			b.WriteString(strings.Repeat(" ", k))
			col += k
			s = rest
		}
		l = appendSpan(l, b.String(), t.Style)
	}
	return l
}

// codeCache keeps the laid-out code blocks of a Stream's tail, so a
// closed fence is highlighted once however often the text after it
// grows. Entries unused by the last Set are dropped.
type codeCache struct {
	m, used map[codeKey][]Line
}

type codeKey struct {
	lang, body string
	width      int
}

func (c *codeCache) get(lang, body string, width int) ([]Line, bool) {
	k := codeKey{lang, body, width}
	ls, ok := c.m[k]
	if ok {
		c.keep(k, ls)
	}
	return ls, ok
}

func (c *codeCache) put(lang, body string, width int, ls []Line) {
	c.keep(codeKey{lang, body, width}, ls)
}

func (c *codeCache) keep(k codeKey, ls []Line) {
	if c.used == nil {
		c.used = map[codeKey][]Line{}
	}
	c.used[k] = ls
}

// sweep ends a Set: only the blocks it used stay cached.
func (c *codeCache) sweep() {
	c.m, c.used = c.used, nil
}
