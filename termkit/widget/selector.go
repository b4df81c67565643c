package widget

import (
	"slices"
	"strconv"
	"strings"

	"github.com/clipperhouse/displaywidth"
	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
)

// Item is one entry of a [Selector]: Label is shown and matched, Detail is
// shown dim after it, Value is the caller's.
type Item struct {
	Label, Detail string
	Value         any
}

// Selector is a filtered list overlay: pickers for sessions, models,
// commands, tree entries. Typing edits the filter; the items whose Label
// fuzzy-matches it (see [Fuzzy]) are shown best first, ties in their
// original order. Not safe for concurrent use.
type Selector struct {
	// Title is drawn in the top border.
	Title string
	// Style is the style of the box's inside and of unselected items.
	Style screen.Style
	// SelectedStyle is the style of the selected row.
	SelectedStyle screen.Style
	// DetailStyle is the style of item details and of the count.
	DetailStyle screen.Style
	// MatchStyle is the style of the label runes the filter matched.
	MatchStyle screen.Style
	// BorderStyle is the style of the border and the title.
	BorderStyle screen.Style

	items   []Item
	filter  string
	visible []int // indexes into items, ranked
	scores  []int
	sel     int
	offset  int
	page    int // item rows at the last Draw
	fz      fuzzer
}

// NewSelector returns a selector over a copy of items with an empty filter
// and the first item selected.
func NewSelector(title string, items []Item) *Selector {
	s := &Selector{Title: title, items: slices.Clone(items), page: 10}
	s.refilter()
	return s
}

// Filter returns the filter text.
func (s *Selector) Filter() string { return s.filter }

// SetFilter replaces the filter (control characters dropped) and selects
// the best match.
func (s *Selector) SetFilter(f string) {
	s.filter = sanitizeInput(f, false)
	s.refilter()
}

// Visible returns the items matching the filter, best first.
func (s *Selector) Visible() []Item {
	out := make([]Item, len(s.visible))
	for i, j := range s.visible {
		out[i] = s.items[j]
	}
	return out
}

// Selected returns the selected item, or nil when nothing matches.
func (s *Selector) Selected() *Item {
	if s.sel < 0 || s.sel >= len(s.visible) {
		return nil
	}
	return &s.items[s.visible[s.sel]]
}

// Select moves the selection to the visible item whose index in the items
// given to NewSelector is i; it does nothing when that item is filtered
// out. Draw scrolls to keep it in view.
func (s *Selector) Select(i int) {
	for v, idx := range s.visible {
		if idx == i {
			s.sel = v
			return
		}
	}
}

func (s *Selector) refilter() {
	s.visible, s.scores = s.visible[:0], s.scores[:0]
	for i := range s.items {
		if sc, _, ok := s.fz.match(s.filter, s.items[i].Label, false); ok {
			s.visible = append(s.visible, i)
			s.scores = append(s.scores, sc)
		}
	}
	if s.filter != "" {
		sort := selectorRank{s.visible, s.scores}
		sort.stable()
	}
	s.sel, s.offset = 0, 0
}

// selectorRank sorts visible indexes by score, descending, stably.
type selectorRank struct {
	idx, score []int
}

func (r selectorRank) stable() {
	type pair struct{ idx, score int }
	ps := make([]pair, len(r.idx))
	for i := range ps {
		ps[i] = pair{r.idx[i], r.score[i]}
	}
	slices.SortStableFunc(ps, func(a, b pair) int { return b.score - a.score })
	for i, p := range ps {
		r.idx[i], r.score[i] = p.idx, p.score
	}
}

// HandleKey applies k: text edits the filter (backspace deletes a
// character, ctrl+w a word, ctrl+u everything); up/ctrl+p and
// down/ctrl+n move the selection by one (stopping at the ends),
// pgup/pgdown by a page, home/end to the first/last item. Enter reports
// done with the selected item (nil when nothing matches); esc, ctrl+c and
// ctrl+g report done with nil. The returned item points into the
// selector's copy of the items.
func (s *Selector) HandleKey(k input.Key) (done bool, chosen *Item) {
	if k.Event == input.Release {
		return false, nil
	}
	ctrl, alt := k.Mod&input.ModCtrl != 0, k.Mod&input.ModAlt != 0
	if k.Text != "" && !ctrl && !alt {
		s.SetFilter(s.filter + k.Text)
		return false, nil
	}
	switch {
	case k.Code == input.KeyEnter:
		return true, s.Selected()
	case k.Code == input.KeyEscape, ctrl && (k.Code == 'c' || k.Code == 'g'):
		return true, nil
	case k.Code == input.KeyBackspace && (alt || ctrl), ctrl && k.Code == 'w':
		f := strings.TrimRight(s.filter, " ")
		if i := strings.LastIndexByte(f, ' '); i >= 0 {
			f = f[:i+1]
		} else {
			f = ""
		}
		s.SetFilter(f)
	case k.Code == input.KeyBackspace, ctrl && k.Code == 'h':
		s.SetFilter(s.filter[:clusterBefore(s.filter, len(s.filter))])
	case ctrl && k.Code == 'u':
		s.SetFilter("")
	case k.Code == input.KeyUp, ctrl && k.Code == 'p':
		s.moveSel(-1)
	case k.Code == input.KeyDown, ctrl && k.Code == 'n':
		s.moveSel(1)
	case k.Code == input.KeyPageUp:
		s.moveSel(-max(s.page, 1))
	case k.Code == input.KeyPageDown:
		s.moveSel(max(s.page, 1))
	case k.Code == input.KeyHome:
		s.sel = 0
	case k.Code == input.KeyEnd:
		s.sel = max(len(s.visible)-1, 0)
	}
	return false, nil
}

func (s *Selector) moveSel(d int) {
	s.sel = min(max(s.sel+d, 0), max(len(s.visible)-1, 0))
}

// Draw draws the selector filling r: a rounded border with the title and,
// at its bottom right, the "n/m" count of matching and all items; inside,
// the filter line and the items, the selected one marked "›" in
// SelectedStyle, the matched runes of each label in MatchStyle, details
// after the label in DetailStyle; labels and details are cut with "…".
// The selection is kept visible. Areas smaller than 4×3 are drawn without
// the border.
func (s *Selector) Draw(b *screen.Buffer, r screen.Rect) {
	if r.Empty() {
		return
	}
	b.Fill(r, s.Style)
	count := strconv.Itoa(len(s.visible)) + "/" + strconv.Itoa(len(s.items))
	in := r
	if r.W >= 4 && r.H >= 3 {
		s.drawBorder(b, r, count)
		in = screen.Rect{X: r.X + 1, Y: r.Y + 1, W: r.W - 2, H: r.H - 2}
	}
	// Filter line, with a block cursor after the text.
	maxX := in.X + in.W
	x := b.SetStringMax(in.X, in.Y, maxX, "> ", s.DetailStyle)
	f := s.filter
	if fw := screen.Width(f); fw > maxX-x-1 {
		f = tail(f, max(maxX-x-1, 0))
	}
	x = b.SetStringMax(x, in.Y, maxX, f, s.Style)
	cur := s.Style
	cur.Attr ^= screen.Reverse
	b.SetStringMax(x, in.Y, maxX, " ", cur)
	if in == r && maxX-screen.Width(count) > x+1 { // no border: count on the filter line
		b.SetStringMax(maxX-screen.Width(count), in.Y, maxX, count, s.DetailStyle)
	}
	rows := in.H - 1
	s.page = max(rows, 1)
	if rows <= 0 {
		return
	}
	if len(s.visible) == 0 {
		b.SetStringMax(in.X, in.Y+1, maxX, screen.Truncate("  no matches", in.W, "…"), s.DetailStyle)
		return
	}
	s.sel = min(max(s.sel, 0), len(s.visible)-1)
	if s.sel < s.offset {
		s.offset = s.sel
	}
	if s.sel >= s.offset+rows {
		s.offset = s.sel - rows + 1
	}
	s.offset = min(max(s.offset, 0), max(len(s.visible)-rows, 0))
	for i := 0; i < rows && s.offset+i < len(s.visible); i++ {
		s.drawItem(b, screen.Rect{X: in.X, Y: in.Y + 1 + i, W: in.W, H: 1}, s.offset+i == s.sel, &s.items[s.visible[s.offset+i]])
	}
}

// tail returns the longest suffix of s that fits in w columns, so the end
// of a long filter stays visible.
func tail(s string, w int) string {
	for len(s) > 0 && screen.Width(s) > w {
		s = s[clusterAfter(s, 0):]
	}
	return s
}

func (s *Selector) drawBorder(b *screen.Buffer, r screen.Rect, count string) {
	Border(b, r, s.BorderStyle, s.Title)
	right, bottom := r.X+r.W-1, r.Y+r.H-1
	if cw := screen.Width(count); r.W >= cw+4 {
		b.SetStringMax(right-cw-2, bottom, right, " "+count+" ", s.DetailStyle)
	}
}

// Border draws a rounded box along the edges of r in style st, with
// title (when not "" and r is at least 6 wide) on its top edge, cut to
// fit. It draws nothing inside.
func Border(b *screen.Buffer, r screen.Rect, st screen.Style, title string) {
	if r.W < 2 || r.H < 2 {
		return
	}
	right, bottom := r.X+r.W-1, r.Y+r.H-1
	for x := r.X + 1; x < right; x++ {
		b.SetCell(x, r.Y, screen.Cell{Content: "─", Style: st})
		b.SetCell(x, bottom, screen.Cell{Content: "─", Style: st})
	}
	for y := r.Y + 1; y < bottom; y++ {
		b.SetCell(r.X, y, screen.Cell{Content: "│", Style: st})
		b.SetCell(right, y, screen.Cell{Content: "│", Style: st})
	}
	b.SetCell(r.X, r.Y, screen.Cell{Content: "╭", Style: st})
	b.SetCell(right, r.Y, screen.Cell{Content: "╮", Style: st})
	b.SetCell(r.X, bottom, screen.Cell{Content: "╰", Style: st})
	b.SetCell(right, bottom, screen.Cell{Content: "╯", Style: st})
	if title != "" && r.W >= 6 {
		t := screen.Truncate(strings.ReplaceAll(title, "\n", " "), r.W-4, "…")
		b.SetStringMax(r.X+2, r.Y, right-1, " "+t+" ", st)
	}
}

// over returns st drawn on a row of style row: st's colours where set,
// else row's, and both attributes.
func over(row, st screen.Style) screen.Style {
	if st.Fg.IsDefault() {
		st.Fg = row.Fg
	}
	if st.Bg.IsDefault() {
		st.Bg = row.Bg
	}
	st.Attr |= row.Attr
	return st
}

func (s *Selector) drawItem(b *screen.Buffer, r screen.Rect, selected bool, it *Item) {
	base, match, detail := s.Style, s.MatchStyle, s.DetailStyle
	gutter := "  "
	if selected {
		base = s.SelectedStyle
		match, detail = over(base, match), over(base, detail)
		gutter = "› "
		b.Fill(r, base)
	}
	maxX := r.X + r.W
	x := b.SetStringMax(r.X, r.Y, maxX, gutter, base)
	_, positions, _ := s.fz.match(s.filter, it.Label, true)
	label := it.Label
	limit := maxX
	cut := screen.Width(label) > maxX-x
	if cut {
		limit-- // room for "…"
	}
	ri, pi := 0, 0
	it2 := displaywidth.StringGraphemes(label)
	for it2.Next() {
		g := it2.Value()
		hit := false
		for range g {
			if pi < len(positions) && positions[pi] == ri {
				hit = true
				pi++
			}
			ri++
		}
		if strings.ContainsAny(g, "\t\n\r") {
			g = " "
		}
		w := screen.Width(g)
		if x+w > limit {
			break
		}
		st := base
		if hit {
			st = match
		}
		x = b.SetStringMax(x, r.Y, maxX, g, st)
	}
	if cut {
		b.SetStringMax(x, r.Y, maxX, "…", base)
		return
	}
	if it.Detail != "" && maxX-x >= 4 {
		d := screen.Truncate(strings.NewReplacer("\n", " ", "\t", " ").Replace(it.Detail), maxX-x-2, "…")
		b.SetStringMax(x+2, r.Y, maxX, d, detail)
	}
}
