package markdown

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/termtest"
)

// frame draws lines into a buffer exactly as tall as they are.
func frame(lines []Line, width int) *screen.Buffer {
	b := screen.NewBuffer(width, len(lines))
	for y, l := range lines {
		l.Draw(b, 0, y, width)
	}
	return b
}

// checkLines fails t if a line is wider than width or holds a control
// character, in its text or its link.
func checkLines(t testing.TB, lines []Line, width int) {
	t.Helper()
	for i, l := range lines {
		if w := l.Width(); w > width {
			t.Fatalf("line %d %q is %d columns, over %d", i, l.String(), w, width)
		}
		for _, s := range l {
			if bad, ok := control(s.Text); ok {
				t.Fatalf("line %d span %q holds control %U", i, s.Text, bad)
			}
			if bad, ok := control(s.Style.Link); ok {
				t.Fatalf("line %d link %q holds control %U", i, s.Style.Link, bad)
			}
			if strings.ContainsRune(s.Text, '\n') {
				t.Fatalf("line %d span %q holds a newline", i, s.Text)
			}
		}
	}
}

func control(s string) (rune, bool) {
	if !utf8.ValidString(s) {
		return utf8.RuneError, true
	}
	for _, r := range s {
		if r < 0x20 || (r >= 0x7F && r < 0xA0) {
			return r, true
		}
	}
	return 0, false
}

func TestRenderGolden(t *testing.T) {
	for _, tt := range []struct {
		name  string
		width int
	}{{"80", 80}, {"30", 30}} {
		t.Run(tt.name, func(t *testing.T) {
			lines := Render(everyDoc, tt.width, DefaultTheme())
			checkLines(t, lines, tt.width)
			termtest.Golden(t, frame(lines, tt.width))
		})
	}
}

func TestRenderHostile(t *testing.T) {
	lines := Render(hostileDoc, 40, DefaultTheme())
	checkLines(t, lines, 40)
	b := frame(lines, 40)
	termtest.Golden(t, b)
	// The renderer's output for the frame must be understood in full by
	// the emulator: nothing in it is a stray control sequence.
	var out strings.Builder
	r := screen.NewRenderer(screen.RendererOptions{Profile: screen.TrueColor, Hyperlinks: true})
	r.Render(b)
	if err := r.Flush(&out); err != nil {
		t.Fatal(err)
	}
	em := termtest.NewEmulator(40, len(lines))
	em.Write([]byte(out.String()))
	if err := em.Err(); err != nil {
		t.Errorf("emulator: %v", err)
	}
	if got, want := em.Screen().String(), b.String(); got != want {
		t.Errorf("emulated screen differs:\n%s\nwant\n%s", got, want)
	}
}

func TestRenderLinks(t *testing.T) {
	tests := []struct {
		name string
		src  string
		hide bool
		want string
		link string
	}{
		{"text differs: URL printed", "[docs](https://x.dev/d)", false, "docs (https://x.dev/d)", "https://x.dev/d"},
		{"URLs hidden", "[docs](https://x.dev/d)", true, "docs", "https://x.dev/d"},
		{"text is the URL", "[https://x.dev/](https://x.dev)", false, "https://x.dev/", "https://x.dev"},
		{"text is the URL without scheme", "[x.dev](https://x.dev)", false, "x.dev", "https://x.dev"},
		{"autolink", "<https://x.dev>", false, "https://x.dev", "https://x.dev"},
		{"email autolink", "<me@x.dev>", false, "me@x.dev", "mailto:me@x.dev"},
		{"fragment", "[top](#top)", false, "top", "#top"},
		{"image", "![a cat](c.png)", true, "[image: a cat]", "c.png"},
		{"escaped URL", "[a](https://x.dev/\\_a&amp;b)", false, "a (https://x.dev/_a&b)", "https://x.dev/_a&b"},
		{"control in URL dropped from the link", "[a](https://x.dev/&#27;x)", false, "a (https://x.dev/␛x)", "https://x.dev/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th := DefaultTheme()
			th.HideLinkURLs = tt.hide
			lines := Render(tt.src, 80, th)
			if len(lines) != 1 || lines[0].String() != tt.want {
				t.Fatalf("Render(%q) = %q, want %q", tt.src, texts(lines), tt.want)
			}
			if got := lines[0][0].Style.Link; got != tt.link {
				t.Errorf("link = %q, want %q", got, tt.link)
			}
		})
	}
}

func TestRenderBlocks(t *testing.T) {
	th := Theme{}
	tests := []struct {
		name  string
		src   string
		width int
		want  []string
	}{
		{"empty", "", 10, nil},
		{"blank line between blocks", "a\n\n\n\nb", 10, []string{"a", "", "b"}},
		{"soft break is a space", "a\nb", 10, []string{"a b"}},
		{"hard break kept", "a\\\nb", 10, []string{"a", "b"}},
		{"heading marker from level 3", "### h", 10, []string{"### h"}},
		{"heading hanging indent", "#### aaa bbb", 9, []string{"#### aaa", "     bbb"}},
		{"ordered list from 0", "0. a\n1. b", 10, []string{"0. a", "1. b"}},
		{"ordered task", "1. [x] a", 10, []string{"1. ☑ a"}},
		{"empty item", "-\n- b", 10, []string{"•", "• b"}},
		{"quote blank line", "> a\n>\n> b", 10, []string{"│ a", "│", "│ b"}},
		{"code clipped", "```\nabcdefghij\n```", 8, []string{"  abcde…"}},
		{"code tabs to 4", "```\n\tx\ta\n```", 20, []string{"      x   a"}},
		{"code narrow drops indent", "```\nabc\n```", 3, []string{"abc"}},
		{"empty fence", "```\n```", 10, nil},
		{"rule is full width", "***", 5, []string{"─────"}},
		{"html block is text", "<script>\nalert(1)\n</script>", 20, []string{"<script>", "alert(1)", "</script>"}},
		{"link definition not drawn", "[a]: /u\n\n[a]", 20, []string{"a (/u)"}},
		{"deep nesting clipped to width", strings.Repeat("> ", 20) + "x", 6, []string{"│ │ │ "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(tt.src, tt.width, th)
			if !reflect.DeepEqual(texts(got), append([]string{}, tt.want...)) {
				t.Errorf("Render(%q, %d) = %q, want %q", tt.src, tt.width, texts(got), tt.want)
			}
			checkLines(t, got, tt.width)
		})
	}
}

func TestRenderHighlights(t *testing.T) {
	src := "```go\nfunc f() {}\n```"
	th := DefaultTheme()
	lines := Render(src, 40, th)
	if len(lines) != 2 || lines[0].String() != "  go" {
		t.Fatalf("Render = %q", texts(lines))
	}
	coloured := false
	for _, s := range lines[1] {
		if !s.Style.Fg.IsDefault() {
			coloured = true
		}
	}
	if !coloured {
		t.Errorf("no token coloured in %#v", lines[1])
	}
	th.Syntax = SyntaxTheme{}
	th.CodeBlock = red
	for _, s := range Render(src, 40, th)[1][1:] {
		if s.Style != red {
			t.Errorf("unhighlighted span %q has style %v, want %v", s.Text, s.Style, red)
		}
	}
	th = DefaultTheme()
	if got := texts(Render("```nosuchlanguage\nx\n```", 40, th)); !reflect.DeepEqual(got, []string{"  nosuchlanguage", "  x"}) {
		t.Errorf("unknown language = %q", got)
	}
}

func TestFitColumns(t *testing.T) {
	tests := []struct {
		name       string
		nat, floor []int
		avail      int
		want       []int
	}{
		{"fits", []int{3, 4}, []int{1, 1}, 10, []int{3, 4}},
		{"widest shrinks", []int{3, 20}, []int{3, 5}, 13, []int{3, 10}},
		{"both shrink to a level", []int{10, 20}, []int{2, 2}, 15, []int{8, 7}},
		{"floors kept", []int{10, 20}, []int{9, 2}, 15, []int{9, 6}},
		{"floors too wide", []int{10, 20}, []int{9, 9}, 10, []int{5, 5}},
		{"at least 1", []int{5, 5, 5}, []int{5, 5, 5}, 1, []int{1, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fitColumns(tt.nat, tt.floor, tt.avail); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("fitColumns(%v, %v, %d) = %v, want %v", tt.nat, tt.floor, tt.avail, got, tt.want)
			}
		})
	}
}
