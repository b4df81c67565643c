package widget

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/termtest"
)

func TestFuzzy(t *testing.T) {
	tests := []struct {
		name      string
		pattern   string
		s         string
		ok        bool
		positions []int
	}{
		{name: "empty pattern", pattern: "", s: "abc", ok: true},
		{name: "no match", pattern: "xyz", s: "abc", ok: false},
		{name: "out of order", pattern: "ba", s: "ab", ok: false},
		{name: "case insensitive", pattern: "FOO", s: "foobar", ok: true, positions: []int{0, 1, 2}},
		{name: "word starts", pattern: "fb", s: "foo bar", ok: true, positions: []int{0, 4}},
		{name: "prefers word start over near", pattern: "cm", s: "commit message", ok: true, positions: []int{0, 7}},
		{name: "prefers consecutive", pattern: "bar", s: "bxaxr bar", ok: true, positions: []int{6, 7, 8}},
		{name: "camel case", pattern: "gs", s: "getString", ok: true, positions: []int{0, 3}},
		{name: "rune indexes", pattern: "éb", s: "café bar", ok: true, positions: []int{3, 5}},
		{name: "longer pattern", pattern: "abcd", s: "abc", ok: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, pos, ok := Fuzzy(tc.pattern, tc.s)
			if ok != tc.ok || !slices.Equal(pos, tc.positions) {
				t.Errorf("Fuzzy(%q, %q) = %v, %v; want %v, %v", tc.pattern, tc.s, pos, ok, tc.positions, tc.ok)
			}
		})
	}
}

func TestFuzzyRanking(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		want    []string // best first
	}{
		{name: "prefix and consecutive", pattern: "gc", want: []string{"gcc", "git commit", "magic"}},
		{name: "word start beats middle", pattern: "mod", want: []string{"model", "select model", "commodore"}},
		{name: "consecutive beats scattered", pattern: "sess", want: []string{"sessions", "save session", "sxexsxs"}},
		{name: "camel hump", pattern: "nf", want: []string{"newFile", "nonefound", "xnxf"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.want)
			slices.Reverse(in)
			var items []Item
			for _, s := range in {
				items = append(items, Item{Label: s})
			}
			s := NewSelector("", items)
			s.SetFilter(tc.pattern)
			var got []string
			for _, it := range s.Visible() {
				got = append(got, it.Label)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("ranking for %q: got %q, want %q", tc.pattern, got, tc.want)
			}
		})
	}
}

func testItems() []Item {
	return []Item{
		{Label: "claude-sonnet", Detail: "anthropic", Value: 1},
		{Label: "claude-opus", Detail: "anthropic", Value: 2},
		{Label: "gpt-5", Detail: "openai", Value: 3},
		{Label: "gemini-pro", Detail: "google", Value: 4},
		{Label: "llama-3.1-70b-instruct", Detail: "local", Value: 5},
		{Label: "mistral-large", Detail: "mistral", Value: 6},
	}
}

func TestSelectorKeys(t *testing.T) {
	tests := []struct {
		name       string
		keys       []string
		wantFilter string
		wantDone   bool
		wantValue  any // nil: no item chosen
	}{
		{name: "enter first", keys: []string{"enter"}, wantDone: true, wantValue: 1},
		{name: "down", keys: []string{"down", "down", "enter"}, wantDone: true, wantValue: 3},
		{name: "ctrl+n ctrl+p", keys: []string{"ctrl+n", "ctrl+n", "ctrl+p", "enter"}, wantDone: true, wantValue: 2},
		{name: "up stops at top", keys: []string{"up", "enter"}, wantDone: true, wantValue: 1},
		{name: "end", keys: []string{"end", "enter"}, wantDone: true, wantValue: 6},
		{name: "home", keys: []string{"end", "home", "enter"}, wantDone: true, wantValue: 1},
		{name: "pgdown stops at end", keys: []string{"pgdown", "enter"}, wantDone: true, wantValue: 6},
		{name: "pgup", keys: []string{"end", "pgup", "enter"}, wantDone: true, wantValue: 1},
		{name: "filter", keys: []string{"type:opus", "enter"}, wantFilter: "opus", wantDone: true, wantValue: 2},
		{name: "filter ranks", keys: []string{"type:gem"}, wantFilter: "gem"},
		{name: "backspace", keys: []string{"type:gpx", "backspace", "enter"}, wantFilter: "gp", wantDone: true, wantValue: 3},
		{name: "ctrl+u", keys: []string{"type:gpx", "ctrl+u"}, wantFilter: ""},
		{name: "ctrl+w", keys: []string{"type:foo bar", "ctrl+w"}, wantFilter: "foo "},
		{name: "no match enter", keys: []string{"type:zzz", "enter"}, wantFilter: "zzz", wantDone: true},
		{name: "esc", keys: []string{"down", "esc"}, wantDone: true},
		{name: "ctrl+c", keys: []string{"ctrl+c"}, wantDone: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSelector("Models", testItems())
			var done bool
			var chosen *Item
			for _, k := range keys(t, tc.keys...) {
				done, chosen = s.HandleKey(k)
			}
			if s.Filter() != tc.wantFilter || done != tc.wantDone {
				t.Fatalf("filter %q done %v, want %q %v", s.Filter(), done, tc.wantFilter, tc.wantDone)
			}
			var v any
			if chosen != nil {
				v = chosen.Value
			}
			if v != tc.wantValue {
				t.Errorf("chosen value %v, want %v", v, tc.wantValue)
			}
		})
	}
}

var (
	testSelected = screen.Style{Bg: screen.Indexed(4), Attr: screen.Bold}
	testDetail   = screen.Style{Attr: screen.Dim}
	testMatch    = screen.Style{Fg: screen.Indexed(3)}
	testBorder   = screen.Style{Fg: screen.Indexed(8)}
)

func TestSelectorDrawGolden(t *testing.T) {
	many := make([]Item, 30)
	for i := range many {
		many[i] = Item{Label: fmt.Sprintf("session %02d", i+1), Detail: "2 days ago"}
	}
	tests := []struct {
		name  string
		items []Item
		keys  []string
		w, h  int
	}{
		{name: "all_20x5", items: testItems(), w: 20, h: 5},
		{name: "filtered_20x5", items: testItems(), keys: []string{"type:cl", "down"}, w: 20, h: 5},
		{name: "filtered_40x8", items: testItems(), keys: []string{"type:lar"}, w: 40, h: 8},
		{name: "no_match_20x5", items: testItems(), keys: []string{"type:zzz"}, w: 20, h: 5},
		{name: "scrolled_30x6", items: many, keys: []string{"down", "down", "down", "down", "down", "down"}, w: 30, h: 6},
		{name: "tiny_3x2", items: testItems(), w: 3, h: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSelector("Models", tc.items)
			s.SelectedStyle, s.DetailStyle, s.MatchStyle, s.BorderStyle = testSelected, testDetail, testMatch, testBorder
			for _, k := range keys(t, tc.keys...) {
				s.HandleKey(k)
			}
			b := screen.NewBuffer(tc.w, tc.h)
			s.Draw(b, b.Bounds())
			termtest.Golden(t, b)
		})
	}
}

func TestSelectorWideLabels(t *testing.T) {
	s := NewSelector("ファイル", []Item{{Label: "日本語のファイル名.txt"}, {Label: "\x1b[31mevil\tname\n"}})
	for _, w := range []int{1, 2, 5, 9, 14, 30} {
		b := screen.NewBuffer(w, 4)
		s.Draw(b, b.Bounds())
		if strings.ContainsAny(b.String(), "\x1b\t") {
			t.Errorf("width %d: control characters drawn: %q", w, b.String())
		}
	}
}

// TestSelectorSelect: Select moves to an item by its index, and leaves the
// selection alone for an item the filter hides.
func TestSelectorSelect(t *testing.T) {
	s := NewSelector("t", []Item{{Label: "alpha"}, {Label: "beta"}, {Label: "gamma"}})
	s.Select(2)
	if got := s.Selected(); got == nil || got.Label != "gamma" {
		t.Fatalf("Select(2) selected %v", got)
	}
	s.SetFilter("be")
	s.Select(0) // alpha is filtered out
	if got := s.Selected(); got == nil || got.Label != "beta" {
		t.Errorf("after Select of a hidden item, selected %v", got)
	}
}
