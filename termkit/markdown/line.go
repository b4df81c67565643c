package markdown

import (
	"strings"

	"github.com/smith-agent/smith/termkit/screen"
)

// Span is a run of text in one style. Text is sanitized (see
// [screen.Sanitize]) and holds no line break in every Span this package
// returns.
type Span struct {
	Text  string
	Style screen.Style
}

// Line is one screen row of spans, left to right.
type Line []Span

// Width returns the number of columns l takes, measured with
// [screen.Width].
func (l Line) Width() int {
	n := 0
	for _, s := range l {
		n += screen.Width(s.Text)
	}
	return n
}

// String returns the text of l without styles.
func (l Line) String() string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.Text)
	}
	return b.String()
}

// Draw draws l on row y of b from column x, clipped before column maxX
// (and the buffer's edge), and returns the column after the last cell
// drawn. A wide cluster that does not fit before maxX is drawn as a space,
// as by [screen.Buffer.SetStringMax].
func (l Line) Draw(b *screen.Buffer, x, y, maxX int) int {
	for _, s := range l {
		if x >= maxX {
			break
		}
		x = b.SetStringMax(x, y, maxX, s.Text, s.Style)
	}
	return x
}

// appendSpan adds text in style st to l, merging it into the last span
// when the styles match.
func appendSpan(l Line, text string, st screen.Style) Line {
	if text == "" {
		return l
	}
	if n := len(l); n > 0 && l[n-1].Style == st {
		l[n-1].Text += text
		return l
	}
	return append(l, Span{Text: text, Style: st})
}

// clip cuts l to at most width columns.
func clip(l Line, width int) Line {
	used := 0
	for i, s := range l {
		w := screen.Width(s.Text)
		if used+w <= width {
			used += w
			continue
		}
		out := make(Line, i, i+1)
		copy(out, l[:i])
		if t := screen.Truncate(s.Text, width-used, ""); t != "" {
			out = append(out, Span{Text: t, Style: s.Style})
		}
		return out
	}
	return l
}

// clipAll clips every line of ls to width, in place.
func clipAll(ls []Line, width int) []Line {
	for i, l := range ls {
		ls[i] = clip(l, width)
	}
	return ls
}

// indent returns ls with first put before the first line and rest before
// the others; empty lines stay empty unless they are the first.
func indent(ls []Line, first, rest Line) []Line {
	out := make([]Line, len(ls))
	for i, l := range ls {
		p := rest
		if i == 0 {
			p = first
		} else if len(l) == 0 {
			continue
		}
		nl := make(Line, 0, len(p)+len(l))
		nl = append(nl, p...)
		out[i] = append(nl, l...)
	}
	return out
}

// join concatenates the non-empty chunks with one empty line between
// them.
func join(chunks [][]Line) []Line {
	n := 0
	for _, c := range chunks {
		if len(c) > 0 {
			n += len(c) + 1
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Line, 0, n-1)
	for _, c := range chunks {
		if len(c) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, nil)
		}
		out = append(out, c...)
	}
	return out
}
