package markdown

import (
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/smith-agent/smith/termkit/screen"
)

// codeTab is the tab stop distance inside code blocks.
const codeTab = 4

// codeIndent is how far code blocks are indented.
const codeIndent = "  "

// codeBlock lays out a code block at width: a label line when lang is
// set, then each source line highlighted, indented, cut with "…" when too
// long. A Stream reuses the lines of blocks it laid out before.
func (r *renderer) codeBlock(lang, body string, width int) []Line {
	if r.code != nil {
		if ls, ok := r.code.get(lang, body, width); ok {
			return ls
		}
	}
	ls := layoutCode(lang, body, width, r.th)
	if r.code != nil {
		r.code.put(lang, body, width, ls)
	}
	return ls
}

func layoutCode(lang, body string, width int, th Theme) []Line {
	pad := codeIndent
	if width < 2*len(codeIndent) {
		pad = ""
	}
	cw := width - len(pad)
	var out []Line
	if lang != "" {
		out = append(out, Line{{Text: pad + screen.Truncate(lang, cw, "…"), Style: th.CodeLabel}})
	}
	for _, l := range highlight(lang, body, th) {
		if l.Width() > cw {
			l = append(clip(l, cw-1), Span{Text: "…", Style: th.CodeLabel})
		}
		if pad != "" && len(l) > 0 {
			l = append(Line{{Text: pad}}, l...)
		}
		out = append(out, l)
	}
	return out
}

// highlight splits body into lines of styled spans: tokens coloured by
// the theme's chroma style when lang has a lexer, tabs expanded, text
// sanitized.
func highlight(lang, body string, th Theme) []Line {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.TrimSuffix(body, "\n")
	if body == "" {
		return nil
	}
	n := strings.Count(body, "\n") + 1
	var toks [][]Span
	if th.Chroma != "" && lang != "" {
		toks = tokenize(lang, body, n, th)
	}
	if toks == nil {
		for ln := range strings.SplitSeq(body, "\n") {
			toks = append(toks, []Span{{Text: ln, Style: th.CodeBlock}})
		}
	}
	out := make([]Line, len(toks))
	for i, t := range toks {
		out[i] = codeLine(t)
	}
	return out
}

// tokenize returns body's n lines as chroma tokens in theme styles, or nil
// when there is no lexer for lang or chroma fails.
func tokenize(lang, body string, n int, th Theme) (lines [][]Span) {
	lexer := lexerFor(lang)
	if lexer == nil {
		return nil
	}
	defer func() {
		if recover() != nil {
			lines = nil
		}
	}()
	it, err := lexer.Tokenise(nil, body)
	if err != nil {
		return nil
	}
	lines = make([][]Span, 1, n)
	for t := it(); t != chroma.EOF; t = it() {
		st := over(th.CodeBlock, tokenStyle(th.Chroma, t.Type))
		for v := t.Value; ; {
			part, rest, nl := strings.Cut(v, "\n")
			if part != "" {
				lines[len(lines)-1] = append(lines[len(lines)-1], Span{Text: part, Style: st})
			}
			if !nl {
				break
			}
			if len(lines) == n {
				return lines
			}
			lines = append(lines, nil)
			v = rest
		}
	}
	for len(lines) < n {
		lines = append(lines, nil)
	}
	return lines
}

// codeLine expands tabs to stops every codeTab columns and sanitizes.
func codeLine(toks []Span) Line {
	col := 0
	var l Line
	for _, t := range toks {
		s := t.Text
		var b strings.Builder
		for {
			part, rest, tab := strings.Cut(s, "\t")
			p := screen.Sanitize(part)
			b.WriteString(p)
			col += screen.Width(p)
			if !tab {
				break
			}
			k := codeTab - col%codeTab
			b.WriteString(strings.Repeat(" ", k))
			col += k
			s = rest
		}
		l = appendSpan(l, b.String(), t.Style)
	}
	return l
}

// lexerIndex holds the coalescing lexers by lower-case name or alias and
// by file extension. It is built once, so a lookup never runs chroma's
// glob matching over every lexer (which lexers.Get does for unknown names,
// making each odd fence label cost milliseconds).
type lexerIndex struct {
	names, exts map[string]chroma.Lexer
	extPrio     map[string]float32
}

var lexerIdx = sync.OnceValue(func() *lexerIndex {
	x := &lexerIndex{names: map[string]chroma.Lexer{}, exts: map[string]chroma.Lexer{}, extPrio: map[string]float32{}}
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		cfg := l.Config()
		if cfg == nil {
			continue
		}
		cl := chroma.Coalesce(l)
		for _, n := range append([]string{cfg.Name}, cfg.Aliases...) {
			if n = strings.ToLower(n); x.names[n] == nil {
				x.names[n] = cl
			}
		}
		for _, g := range cfg.Filenames {
			ext, ok := strings.CutPrefix(strings.ToLower(g), "*.")
			if !ok || strings.ContainsAny(ext, "*?[]{}") {
				continue
			}
			if p, seen := x.extPrio[ext]; !seen || cfg.Priority > p {
				x.exts[ext], x.extPrio[ext] = cl, cfg.Priority
			}
		}
	}
	return x
})

// lexerFor returns the coalescing chroma lexer for a language name, alias
// or file extension ("go", "golang", "rs"), or nil.
func lexerFor(lang string) chroma.Lexer {
	x := lexerIdx()
	key := strings.ToLower(lang)
	if l := x.names[key]; l != nil {
		return l
	}
	return x.exts[key]
}

type styleKey struct {
	name string
	tt   chroma.TokenType
}

var styleMemo sync.Map // styleKey → screen.Style

// tokenStyle maps a chroma style entry to a screen style: its colour as
// RGB unless it is the style's plain-text colour, bold, italic and
// underline; backgrounds are dropped.
func tokenStyle(name string, tt chroma.TokenType) screen.Style {
	k := styleKey{name, tt}
	if v, ok := styleMemo.Load(k); ok {
		return v.(screen.Style)
	}
	cs := styles.Get(name)
	e := cs.Get(tt)
	var st screen.Style
	if c := e.Colour; c.IsSet() && c != cs.Get(chroma.Background).Colour && c != cs.Get(chroma.Text).Colour {
		st.Fg = screen.RGB(c.Red(), c.Green(), c.Blue())
	}
	if e.Bold == chroma.Yes {
		st.Attr |= screen.Bold
	}
	if e.Italic == chroma.Yes {
		st.Attr |= screen.Italic
	}
	if e.Underline == chroma.Yes {
		st.Attr |= screen.Underline
	}
	styleMemo.Store(k, st)
	return st
}

// codeCache keeps the laid-out code blocks of a Stream's tail, so a
// closed fence is highlighted once however often the text after it
// grows. Entries unused by the last Set are dropped.
type codeCache struct {
	m, used map[codeKey][]Line
}

type codeKey struct {
	lang, body string
	width      int
}

func (c *codeCache) get(lang, body string, width int) ([]Line, bool) {
	k := codeKey{lang, body, width}
	ls, ok := c.m[k]
	if ok {
		c.keep(k, ls)
	}
	return ls, ok
}

func (c *codeCache) put(lang, body string, width int, ls []Line) {
	c.keep(codeKey{lang, body, width}, ls)
}

func (c *codeCache) keep(k codeKey, ls []Line) {
	if c.used == nil {
		c.used = map[codeKey][]Line{}
	}
	c.used[k] = ls
}

// sweep ends a Set: only the blocks it used stay cached.
func (c *codeCache) sweep() {
	c.m, c.used = c.used, nil
}
