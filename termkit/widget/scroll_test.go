package widget_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/widget"
)

// rows is a source whose item i is heights[i] rows tall at any width; it
// counts the calls a Draw makes.
type rows struct {
	heights []int
	calls   int
}

func (s *rows) Len() int { return len(s.heights) }

func (s *rows) Height(i, width int) int { s.calls++; return s.heights[i] }

func (s *rows) DrawRow(b *screen.Buffer, i, row, x, y, width int) {
	s.calls++
	b.SetStringMax(x, y, x+width, fmt.Sprintf("%d.%d", i, row), screen.Style{})
}

// view draws v at w×h and returns its rows, trimmed, joined by "|".
func view(v *widget.ScrollView, src *rows, w, h int) string {
	b := screen.NewBuffer(w, h)
	v.Draw(b, b.Bounds(), src)
	var out []string
	for y := range h {
		var sb strings.Builder
		for _, c := range b.Row(y) {
			sb.WriteString(c.Content)
		}
		out = append(out, strings.TrimSpace(sb.String()))
	}
	return strings.Join(out, "|")
}

func TestScrollView(t *testing.T) {
	tests := []struct {
		name    string
		heights []int
		do      func(v *widget.ScrollView, s *rows)
		want    string
		follows bool
	}{
		{name: "follows the end", heights: []int{2, 3, 2}, want: "1.1|1.2|2.0|2.1", follows: true},
		{name: "short content starts at the top", heights: []int{1, 1}, want: "0.0|1.0||", follows: true},
		{name: "empty", heights: nil, want: "|||", follows: true},
		{name: "scroll up", heights: []int{2, 3, 2}, do: func(v *widget.ScrollView, s *rows) { v.ScrollUp(s, 2) },
			want: "0.1|1.0|1.1|1.2"},
		{name: "scroll up past the start stops", heights: []int{2, 3, 2}, do: func(v *widget.ScrollView, s *rows) { v.ScrollUp(s, 50) },
			want: "0.0|0.1|1.0|1.1"},
		{name: "appended items do not move an anchored view", heights: []int{2, 3, 2}, do: func(v *widget.ScrollView, s *rows) {
			v.ScrollUp(s, 2)
			s.heights = append(s.heights, 4, 4)
			s.heights[2] = 9 // the last item grew too
		}, want: "0.1|1.0|1.1|1.2"},
		{name: "scrolling down to the end follows again", heights: []int{2, 3, 2}, do: func(v *widget.ScrollView, s *rows) {
			v.ScrollUp(s, 2)
			v.ScrollDown(s, 2)
		}, want: "1.1|1.2|2.0|2.1", follows: true},
		{name: "page up overlaps two rows", heights: []int{3, 3, 3}, do: func(v *widget.ScrollView, s *rows) { v.PageUp(s) },
			want: "1.0|1.1|1.2|2.0"},
		{name: "scroll to an item", heights: []int{3, 3, 3, 3}, do: func(v *widget.ScrollView, s *rows) { v.ScrollTo(s, 1) },
			want: "1.0|1.1|1.2|2.0"},
		{name: "start", heights: []int{3, 3, 3, 3}, do: func(v *widget.ScrollView, s *rows) { v.ScrollToStart(s) },
			want: "0.0|0.1|0.2|1.0"},
		{name: "an item taller than the view", heights: []int{10}, do: func(v *widget.ScrollView, s *rows) { v.ScrollUp(s, 3) },
			want: "0.3|0.4|0.5|0.6"},
		{name: "shrunk anchor item clamps its row", heights: []int{6, 6}, do: func(v *widget.ScrollView, s *rows) {
			v.ScrollTo(s, 1)
			v.ScrollDown(s, 1)
			s.heights[1] = 1
		}, want: "0.3|0.4|0.5|1.0", follows: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v widget.ScrollView
			src := &rows{heights: tt.heights}
			view(&v, src, 10, 4) // a first frame, as the app draws before input
			if tt.do != nil {
				tt.do(&v, src)
			}
			if got := view(&v, src, 10, 4); got != tt.want {
				t.Errorf("view = %q, want %q", got, tt.want)
			}
			if v.Following() != tt.follows {
				t.Errorf("Following() = %v, want %v", v.Following(), tt.follows)
			}
			if v.HiddenBelow() == tt.follows && len(tt.heights) > 0 && !tt.follows {
				t.Errorf("HiddenBelow() = %v while anchored above the end", v.HiddenBelow())
			}
		})
	}
}

// TestScrollViewWorkIsVisible: a frame of a 2,000-item transcript asks
// only about what it shows, following or anchored in the middle.
func TestScrollViewWorkIsVisible(t *testing.T) {
	heights := make([]int, 2000)
	for i := range heights {
		heights[i] = 1 + i%5
	}
	src := &rows{heights: heights}
	var v widget.ScrollView
	b := screen.NewBuffer(80, 40)
	v.Draw(b, b.Bounds(), src)
	for _, step := range []struct {
		name string
		do   func()
	}{
		{"following", func() {}},
		{"anchored in the middle", func() { v.ScrollTo(src, 1000) }},
		{"scrolled up a page", func() { v.PageUp(src) }},
	} {
		step.do()
		src.calls = 0
		v.Draw(b, b.Bounds(), src)
		// 40 rows drawn, and a height per item on screen (≤ 41) plus the
		// anchor's, twice at most.
		if src.calls > 40+2*42 {
			t.Errorf("%s: a frame made %d source calls, want ≤ %d (it must not walk the transcript)", step.name, src.calls, 40+2*42)
		}
	}
}

func BenchmarkScrollViewDraw2000(b *testing.B) {
	heights := make([]int, 2000)
	for i := range heights {
		heights[i] = 1 + i%7
	}
	src := &rows{heights: heights}
	var v widget.ScrollView
	buf := screen.NewBuffer(120, 40)
	b.ReportAllocs()
	for b.Loop() {
		v.Draw(buf, buf.Bounds(), src)
	}
}
