package markdown

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/termkit/screen"
)

// TestTokenize: each token class gets its style, in each lexer family.
func TestTokenize(t *testing.T) {
	th := DefaultTheme()
	sx := th.Syntax
	tests := []struct {
		name, lang, src string
		token           string // a span's whole text
		style           screen.Style
	}{
		{name: "go keyword", lang: "go", src: "func main() {}", token: "func", style: sx.Keyword},
		{name: "go function", lang: "go", src: "func main() {}", token: "main", style: sx.Function},
		{name: "go string", lang: "go", src: `x := "a \"q\" b"`, token: `"a \"q\" b"`, style: sx.String},
		{name: "go raw string over lines", lang: "golang", src: "x := `multi\nline`", token: "line`", style: sx.String},
		{name: "go comment", lang: "go", src: "x // note", token: "// note", style: sx.Comment},
		{name: "go number", lang: "go", src: "x := 0x1f", token: "0x1f", style: sx.Number},
		{name: "python docstring", lang: "py", src: `"""doc"""`, token: `"""doc"""`, style: sx.String},
		{name: "shell variable", lang: "bash", src: "echo $HOME", token: "$HOME", style: sx.Builtin},
		{name: "json key", lang: "json", src: `{"k": 1}`, token: `"k"`, style: sx.Type},
		{name: "file name as label", lang: "main.rs", src: "fn main() {}", token: "fn", style: sx.Keyword},
		{name: "diff line", lang: "diff", src: "+added\n-gone", token: "-gone", style: sx.DiffDel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := strings.Count(tt.src, "\n") + 1
			lines := tokenize(tt.lang, tt.src, n, th)
			if len(lines) != n {
				t.Fatalf("%d lines, want %d", len(lines), n)
			}
			for _, l := range lines {
				for _, s := range l {
					if s.Text == tt.token {
						if want := over(th.CodeBlock, tt.style); s.Style != want {
							t.Errorf("%q styled %v, want %v", tt.token, s.Style, want)
						}
						return
					}
				}
			}
			t.Errorf("no span %q in %q", tt.token, lines)
		})
	}
	if tokenize("brainfudge", "x", 1, th) != nil {
		t.Error("an unknown language was tokenized")
	}
}

// FuzzTokenize: any text in any lexer keeps its bytes and its line count.
func FuzzTokenize(f *testing.F) {
	for _, lang := range []string{"go", "python", "bash", "json", "sql", "html", "diff", "c"} {
		f.Add(lang, "func f() { /* c */ x := \"s\\\"\" + `raw`; y := 'c' } // end\n$V")
	}
	f.Fuzz(func(t *testing.T, lang, src string) {
		n := strings.Count(src, "\n") + 1
		lines := tokenize(lang, src, n, DefaultTheme())
		if lines == nil {
			return
		}
		var got []string
		for _, l := range lines {
			var sb strings.Builder
			for _, s := range l {
				sb.WriteString(s.Text)
			}
			got = append(got, sb.String())
		}
		if strings.Join(got, "\n") != src {
			t.Fatalf("tokens %q do not rebuild %q", got, src)
		}
	})
}
