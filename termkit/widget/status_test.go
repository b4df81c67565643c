package widget

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/termtest"
)

func TestDrawStatus(t *testing.T) {
	bold := screen.Style{Attr: screen.Bold}
	left := []Segment{{Text: "smith", Style: bold}, {Text: " · ~/src/project"}}
	right := []Segment{{Text: "claude-opus"}, {Text: " 12%", Style: bold}}
	tests := []struct {
		name        string
		w           int
		left, right []Segment
		want        string
	}{
		{name: "fits", w: 40, left: left, right: right, want: "smith · ~/src/project    claude-opus 12%"},
		{name: "left cut", w: 30, left: left, right: right, want: "smith · ~/src… claude-opus 12%"},
		{name: "left cut to ellipsis", w: 17, left: left, right: right, want: "… claude-opus 12%"},
		{name: "left dropped right cut", w: 10, left: left, right: right, want: "claude-op…"},
		{name: "width 1", w: 1, left: left, right: right, want: "…"},
		{name: "width 1 left only", w: 1, left: left, want: "…"},
		{name: "left only", w: 12, left: left, want: "smith · ~/s…"},
		{name: "right only", w: 12, right: right, want: "claude-opus…"},
		{name: "empty", w: 5, want: ""},
		{name: "newline and tab", w: 20, left: []Segment{{Text: "a\nb\tc"}}, want: "a b c"},
		{name: "wide", w: 6, left: []Segment{{Text: "日本語テキスト"}}, right: []Segment{{Text: "x"}}, want: "日…  x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := screen.NewBuffer(tc.w, 1)
			DrawStatus(b, b.Bounds(), tc.left, tc.right)
			if got := strings.TrimRight(b.String(), "\n"); got != tc.want {
				t.Errorf("width %d: got %q, want %q", tc.w, got, tc.want)
			}
		})
	}
}

func TestDrawStatusGolden(t *testing.T) {
	b := screen.NewBuffer(30, 2)
	b.Fill(screen.Rect{W: 30, H: 1}, screen.Style{Bg: screen.Indexed(0)})
	DrawStatus(b, screen.Rect{W: 30, H: 1},
		[]Segment{{Text: " NORMAL ", Style: screen.Style{Attr: screen.Reverse}}, {Text: " main.go"}},
		[]Segment{{Text: "ln 12 ", Style: screen.Style{Attr: screen.Dim}}})
	DrawStatus(b, screen.Rect{Y: 1, W: 12, H: 1},
		[]Segment{{Text: " NORMAL ", Style: screen.Style{Attr: screen.Reverse}}, {Text: " main.go"}},
		[]Segment{{Text: "ln 12", Style: screen.Style{Attr: screen.Dim}}})
	termtest.Golden(t, b)
}
