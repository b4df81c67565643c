package markdown

import (
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/termkit/screen"
)

var (
	bold = screen.Style{Attr: screen.Bold}
	red  = screen.Style{Fg: screen.Indexed(1)}
)

// texts returns the text of each line.
func texts(ls []Line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.String()
	}
	return out
}

func TestWrap(t *testing.T) {
	tests := []struct {
		name  string
		spans []Span
		width int
		want  []string
	}{
		{"empty", nil, 10, []string{""}},
		{"fits", []Span{{Text: "hello world"}}, 11, []string{"hello world"}},
		{"breaks at spaces", []Span{{Text: "the quick brown fox"}}, 10, []string{"the quick", "brown fox"}},
		{"drops spaces at the break", []Span{{Text: "aaaa     bbbb"}}, 6, []string{"aaaa", "bbbb"}},
		{"drops trailing spaces", []Span{{Text: "aa   "}}, 10, []string{"aa"}},
		{"keeps leading indentation", []Span{{Text: "    code here"}}, 20, []string{"    code here"}},
		{"indentation at most width-1", []Span{{Text: "          x"}}, 4, []string{"   x"}},
		{"long word hard-broken", []Span{{Text: "abcdefghij"}}, 4, []string{"abcd", "efgh", "ij"}},
		{"long word starts a new line", []Span{{Text: "ab abcdefgh"}}, 4, []string{"ab", "abcd", "efgh"}},
		{"word across spans stays whole", []Span{{Text: "x foo"}, {Text: "bar", Style: bold}}, 6, []string{"x", "foobar"}},
		{"CJK is two columns", []Span{{Text: "日本語 テキスト"}}, 7, []string{"日本語", "テキス", "ト"}},
		{"CJK hard break between clusters", []Span{{Text: "日本語"}}, 3, []string{"日", "本", "語"}},
		{"emoji ZWJ sequence is one cluster", []Span{{Text: "a 👩‍💻👩‍💻"}}, 3, []string{"a", "👩‍💻", "👩‍💻"}},
		{"combining marks stay on their base", []Span{{Text: "e\u0301e\u0301e\u0301"}}, 2, []string{"e\u0301e\u0301", "e\u0301"}},
		{"width 1", []Span{{Text: "ab c"}}, 1, []string{"a", "b", "c"}},
		{"width 1 wide cluster", []Span{{Text: "日"}}, 1, []string{"…"}},
		{"width below 1 counts as 1", []Span{{Text: "ab"}}, -5, []string{"a", "b"}},
		{"controls become pictures", []Span{{Text: "a\x1b[0m\a"}}, 10, []string{"a␛[0m␇"}},
		{"tab expanded", []Span{{Text: "a\tb"}}, 20, []string{"a       b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Wrap(tt.spans, tt.width)
			if !reflect.DeepEqual(texts(got), tt.want) {
				t.Errorf("Wrap(%q, %d) = %q, want %q", tt.spans, tt.width, texts(got), tt.want)
			}
			for _, l := range got {
				if w := l.Width(); w > max(tt.width, 1) {
					t.Errorf("line %q is %d columns, over %d", l.String(), w, tt.width)
				}
			}
		})
	}
}

func TestWrapKeepsStyles(t *testing.T) {
	got := Wrap([]Span{{Text: "plain "}, {Text: "bold words", Style: bold}, {Text: " red", Style: red}}, 11)
	want := []Line{
		{{Text: "plain "}, {Text: "bold", Style: bold}},
		{{Text: "words", Style: bold}, {Text: " red", Style: red}}, // the space is the red span's
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Wrap = %#v\nwant %#v", got, want)
	}
}

func TestPlain(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		width int
		want  []string
	}{
		{"empty", "", 10, nil},
		{"final newline adds no line", "a\n", 10, []string{"a"}},
		{"blank lines kept", "a\n\nb", 10, []string{"a", "", "b"}},
		{"CRLF", "a\r\nb\r\n", 10, []string{"a", "b"}},
		{"tabs from line start", "ab\tc\n\td", 20, []string{"ab      c", "        d"}},
		{"wraps", "one two three", 7, []string{"one two", "three"}},
		{"lone CR is a picture", "a\rb", 10, []string{"a␍b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Plain(tt.text, tt.width, red)
			if !reflect.DeepEqual(texts(got), append([]string(nil), tt.want...)) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("Plain(%q) = %q, want %q", tt.text, texts(got), tt.want)
			}
			for _, l := range got {
				for _, s := range l {
					if s.Style != red {
						t.Errorf("span %q has style %v, want %v", s.Text, s.Style, red)
					}
				}
			}
		})
	}
}

func TestLineDraw(t *testing.T) {
	b := screen.NewBuffer(8, 1)
	l := Line{{Text: "ab", Style: bold}, {Text: "日本語", Style: red}}
	if x := l.Draw(b, 1, 0, 6); x != 6 {
		t.Errorf("Draw returned %d, want 6", x)
	}
	if got := strings.TrimRight(b.String(), "\n "); got != " ab日 " && got != " ab日" {
		t.Errorf("drew %q", got)
	}
	if c := b.Cell(1, 0); c.Style != bold {
		t.Errorf("cell 1 style %v, want bold", c.Style)
	}
	if l.Width() != 8 {
		t.Errorf("Width = %d, want 8", l.Width())
	}
}
