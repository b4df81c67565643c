package markdown

import (
	"strings"

	"github.com/smith-agent/smith/termkit/screen"
	east "github.com/yuin/goldmark/extension/ast"
)

// table lays out a GFM table with box-drawing borders. Columns are as wide
// as their widest cell; when that is too wide for width the widest
// columns shrink and their cells wrap, and rule lines then separate the
// body rows.
func (r *renderer) table(t *east.Table, width int, base screen.Style) []Line {
	var rows [][][]Span
	ncols := len(t.Alignments)
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		st := base
		if _, ok := row.(*east.TableHeader); ok {
			st = over(base, r.th.TableHeader)
		}
		var cells [][]Span
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			var spans []Span
			for i, seg := range r.inlines(cell, st) {
				if i > 0 {
					spans = append(spans, Span{Text: " ", Style: st})
				}
				spans = append(spans, seg...)
			}
			cells = append(cells, spans)
		}
		ncols = max(ncols, len(cells))
		rows = append(rows, cells)
	}
	if ncols == 0 || len(rows) == 0 {
		return nil
	}
	nat, floor := make([]int, ncols), make([]int, ncols)
	for _, cells := range rows {
		for c, spans := range cells {
			nat[c] = max(nat[c], Line(spans).Width())
			floor[c] = max(floor[c], longestWord(spans))
		}
	}
	for c := range nat {
		nat[c] = max(nat[c], 1)
		floor[c] = min(max(floor[c], 1), nat[c])
	}
	colW := fitColumns(nat, floor, width-3*ncols-1)

	bst := over(base, r.th.TableBorder)
	rule := func(left, mid, right string) Line {
		var b strings.Builder
		b.WriteString(left)
		for c, w := range colW {
			if c > 0 {
				b.WriteString(mid)
			}
			b.WriteString(strings.Repeat("─", w+2))
		}
		b.WriteString(right)
		return Line{{Text: b.String(), Style: bst}}
	}
	// Lay out every row's cells first: tall rows get separators.
	laid := make([][][]Line, len(rows))
	tall := false
	for i, cells := range rows {
		laid[i] = make([][]Line, ncols)
		for c := range ncols {
			var spans []Span
			if c < len(cells) {
				spans = cells[c]
			}
			laid[i][c] = Wrap(spans, colW[c])
			if len(laid[i][c]) > 1 && i > 0 {
				tall = true
			}
		}
	}
	_, hasHeader := t.FirstChild().(*east.TableHeader)
	out := []Line{rule("┌", "┬", "┐")}
	for i, cells := range laid {
		if i > 0 && ((i == 1 && hasHeader) || tall) {
			out = append(out, rule("├", "┼", "┤"))
		}
		h := 0
		for _, ls := range cells {
			h = max(h, len(ls))
		}
		for y := range h {
			l := Line{{Text: "│ ", Style: bst}}
			for c, ls := range cells {
				if c > 0 {
					l = append(l, Span{Text: " │ ", Style: bst})
				}
				var cl Line
				if y < len(ls) {
					cl = ls[y]
				}
				align := east.AlignNone
				if c < len(t.Alignments) {
					align = t.Alignments[c]
				}
				l = append(l, alignCell(cl, colW[c], align, base)...)
			}
			out = append(out, append(l, Span{Text: " │", Style: bst}))
		}
	}
	return append(out, rule("└", "┴", "┘"))
}

// alignCell pads l to w columns.
func alignCell(l Line, w int, a east.Alignment, st screen.Style) Line {
	gap := w - l.Width()
	if gap <= 0 {
		return l
	}
	left := 0
	switch a {
	case east.AlignRight:
		left = gap
	case east.AlignCenter:
		left = gap / 2
	}
	out := make(Line, 0, len(l)+2)
	if left > 0 {
		out = append(out, Span{Text: strings.Repeat(" ", left), Style: st})
	}
	out = append(out, l...)
	if gap-left > 0 {
		out = append(out, Span{Text: strings.Repeat(" ", gap-left), Style: st})
	}
	return out
}

// fitColumns returns column widths that sum to at most avail: the
// natural widths nat if they fit; else the widest columns shrink to a
// common limit, but not below floor (the longest word) so words stay
// whole; if even the floors do not fit, words are broken too (floors of
// 1). Columns are at least 1 wide; the remainder goes to the shrunk
// columns from the left.
func fitColumns(nat, floor []int, avail int) []int {
	sum, fsum := 0, 0
	for c, n := range nat {
		sum += n
		fsum += floor[c]
	}
	if sum <= avail {
		return append([]int(nil), nat...)
	}
	if fsum > avail {
		floor = make([]int, len(nat))
		for c := range floor {
			floor[c] = 1
		}
	}
	width := func(c, limit int) int { return max(floor[c], min(nat[c], limit)) }
	total := func(limit int) int {
		s := 0
		for c := range nat {
			s += width(c, limit)
		}
		return s
	}
	lo, hi := 1, 1
	for _, n := range nat {
		hi = max(hi, n)
	}
	for lo < hi { // the largest limit whose total fits
		mid := (lo + hi + 1) / 2
		if total(mid) <= avail {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	extra := avail - total(lo)
	w := make([]int, len(nat))
	for c := range nat {
		w[c] = width(c, lo)
		if extra > 0 && w[c] == lo && nat[c] > lo {
			w[c]++
			extra--
		}
	}
	return w
}

// longestWord returns the width of the widest run of non-space text in
// spans.
func longestWord(spans []Span) int {
	var w wrapper
	w.split(spans)
	best, cur := 0, 0
	for _, p := range w.ps {
		if p.space {
			cur = 0
			continue
		}
		cur += p.w
		best = max(best, cur)
	}
	return best
}
