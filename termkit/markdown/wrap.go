package markdown

import (
	"strings"
	"sync"

	"github.com/clipperhouse/displaywidth"
	"github.com/smith-agent/smith/termkit/screen"
)

// piece is a run of spaces or of non-space text: bytes start to end of
// the sanitized text of span number span.
type piece struct {
	span, start, end int
	w                int
	space            bool
}

// wrapper accumulates wrapped lines.
type wrapper struct {
	width int
	texts []string // sanitized span texts
	spans []Span
	ps    []piece
	lines []Line
	cur   Line
	curW  int
	// The last span of cur, when it is a substring of texts[lastSpan]
	// ending at lastEnd: pieces that continue it extend it for free.
	lastSpan, lastStart, lastEnd int
}

var wrapperPool = sync.Pool{New: func() any { return new(wrapper) }}

func (w *wrapper) split(spans []Span) {
	for i, sp := range spans {
		t := screen.Sanitize(sp.Text)
		w.texts = append(w.texts, t)
		for off := 0; off < len(t); {
			j := off
			if t[off] == ' ' {
				for j < len(t) && t[j] == ' ' {
					j++
				}
				w.ps = append(w.ps, piece{span: i, start: off, end: j, w: j - off, space: true})
			} else {
				j = strings.IndexByte(t[off:], ' ')
				if j < 0 {
					j = len(t)
				} else {
					j += off
				}
				w.ps = append(w.ps, piece{span: i, start: off, end: j, w: screen.Width(t[off:j])})
			}
			off = j
		}
	}
}

func (w *wrapper) newline() {
	w.lines = append(w.lines, w.cur)
	w.cur, w.curW = nil, 0
	w.lastSpan = -1
}

// add appends bytes start to end of span i, tw columns wide.
func (w *wrapper) add(i, start, end, tw int) {
	w.curW += tw
	if n := len(w.cur); n > 0 && w.lastSpan == i && w.lastEnd == start {
		w.cur[n-1].Text = w.texts[i][w.lastStart:end]
		w.lastEnd = end
		return
	}
	w.cur = append(w.cur, Span{Text: w.texts[i][start:end], Style: w.spans[i].Style})
	w.lastSpan, w.lastStart, w.lastEnd = i, start, end
}

// addText appends text that is not part of a span's text.
func (w *wrapper) addText(text string, st screen.Style, tw int) {
	w.curW += tw
	w.cur = appendSpan(w.cur, text, st)
	w.lastSpan = -1
}

// hardBreak adds a word that does not fit on a line, cluster by cluster.
func (w *wrapper) hardBreak(word []piece) {
	for _, p := range word {
		t := w.texts[p.span]
		eachCluster(t[p.start:p.end], func(off, n int) {
			g := t[p.start+off : p.start+off+n]
			gw := screen.Width(g)
			if w.curW+gw > w.width && w.curW > 0 {
				w.newline()
			}
			if gw > w.width { // a wide cluster at width 1
				w.addText("…", w.spans[p.span].Style, 1)
				return
			}
			w.add(p.span, p.start+off, p.start+off+n, gw)
		})
	}
}

// eachCluster calls f with the offset and length of each grapheme
// cluster of the sanitized text s.
func eachCluster(s string, f func(off, n int)) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		for i := 0; i < len(s); i++ {
			f(i, 1)
		}
		return
	}
	it := displaywidth.StringGraphemes(s)
	off := 0
	for it.Next() {
		n := len(it.Value())
		f(off, n)
		off += n
	}
}

// Wrap word-wraps spans to lines of at most width columns (a width below 1
// counts as 1), measuring with [screen.Width]. Text is sanitized first.
// Lines break at spaces, which are dropped at the break; a word longer than
// width starts a new line and is broken between grapheme clusters. Spaces
// at the very start are kept as indentation (at most width-1 columns);
// trailing spaces are dropped. Styles are kept, and adjacent pieces of one
// style are merged into one span. Wrap returns at least one line.
func Wrap(spans []Span, width int) []Line {
	w := wrapperPool.Get().(*wrapper)
	*w = wrapper{width: max(width, 1), spans: spans, texts: w.texts[:0], ps: w.ps[:0], lastSpan: -1}
	w.split(spans)
	ps := w.ps
	gap, gapEnd, gapW := 0, 0, 0 // the spaces before the next word: ps[gap:gapEnd]
	started := false
	for i := 0; i < len(ps); {
		if ps[i].space {
			if gapEnd != i {
				gap, gapW = i, 0
			}
			gapEnd = i + 1
			gapW += ps[i].w
			i++
			continue
		}
		j, ww := i, 0
		for j < len(ps) && !ps[j].space {
			ww += ps[j].w
			j++
		}
		word := ps[i:j]
		hasGap := gapEnd == i && gapW > 0
		switch {
		case !started:
			started = true
			if ind := min(gapW, w.width-1); hasGap && ind > 0 {
				w.addText(strings.Repeat(" ", ind), spans[ps[gap].span].Style, ind)
			}
		case !hasGap || w.curW+gapW+ww <= w.width:
			if hasGap {
				for _, g := range ps[gap:gapEnd] {
					w.add(g.span, g.start, g.end, g.w)
				}
			}
		default:
			w.newline()
		}
		i = j
		gapW = 0
		if w.curW+ww <= w.width {
			for _, p := range word {
				w.add(p.span, p.start, p.end, p.w)
			}
			continue
		}
		w.hardBreak(word)
	}
	if len(w.cur) > 0 || len(w.lines) == 0 {
		w.newline()
	}
	lines := w.lines
	clear(w.texts)
	*w = wrapper{texts: w.texts[:0], ps: w.ps[:0]}
	if cap(w.ps) <= 1<<12 {
		wrapperPool.Put(w)
	}
	return lines
}

// Plain lays out plain text: it splits text into lines at "\n" (dropping a
// "\r" before it), expands tabs to stops every [screen.TabWidth] columns
// from the start of each line, sanitizes, and wraps each line with [Wrap]
// in style st. A final "\n" adds no empty line; "" gives no lines.
func Plain(text string, width int, st screen.Style) []Line {
	if text == "" {
		return nil
	}
	text = strings.TrimSuffix(text, "\n")
	var out []Line
	for {
		ln, rest, more := strings.Cut(text, "\n")
		ln = strings.TrimSuffix(ln, "\r")
		out = append(out, Wrap([]Span{{Text: screen.Sanitize(ln), Style: st}}, width)...)
		if !more {
			return out
		}
		text = rest
	}
}
