package markdown

import (
	"strings"
	"sync"

	"github.com/smith-agent/smith/termkit/screen"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	gparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// mdParser is goldmark with the GFM extensions; goldmark parsers are safe
// for concurrent use.
var mdParser = sync.OnceValue(func() gparser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
})

// Render lays out the markdown document src at width columns (a width
// below 1 counts as 1) in theme th. Top-level blocks are separated by one
// empty line. Every line is at most width columns wide. See the package
// documentation for the layout rules.
func Render(src string, width int, th Theme) []Line {
	width = max(width, 1)
	d, ok := renderDoc([]byte(src), width, th, nil)
	if !ok {
		return Plain(src, width, th.Text)
	}
	return join(d.chunks)
}

// rendered is a document laid out block by block.
type rendered struct {
	chunks [][]Line // the lines of each top-level block
	starts []int    // the offset of the line each block starts on, or -1
	refs   bool     // the document defines link references
}

// renderDoc parses and lays out src. It reports false if a dependency
// panicked, so callers can fall back to plain text.
func renderDoc(src []byte, width int, th Theme, cache *codeCache) (d rendered, ok bool) {
	defer func() {
		if recover() != nil {
			d, ok = rendered{}, false
		}
	}()
	pc := gparser.NewContext()
	doc := mdParser().Parse(text.NewReader(src), gparser.WithContext(pc))
	r := &renderer{src: src, th: th, code: cache}
	base := th.Text
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		d.chunks = append(d.chunks, clipAll(r.block(n, width, base), width))
		d.starts = append(d.starts, lineStart(src, n.Pos()))
	}
	d.refs = len(pc.References()) > 0
	return d, true
}

// lineStart returns the offset of the start of the line holding offset
// pos, or -1 if pos is not in src.
func lineStart(src []byte, pos int) int {
	if pos < 0 || pos > len(src) {
		return -1
	}
	for pos > 0 && src[pos-1] != '\n' {
		pos--
	}
	return pos
}

// renderer lays out the blocks of one parsed document.
type renderer struct {
	src   []byte
	th    Theme
	code  *codeCache // nil outside a Stream
	depth int        // list nesting
}

// children lays out the blocks under n, with an empty line between two
// unless tight.
func (r *renderer) children(n ast.Node, width int, base screen.Style, tight bool) []Line {
	var chunks [][]Line
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		chunks = append(chunks, r.block(c, width, base))
	}
	if !tight {
		return join(chunks)
	}
	var out []Line
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}

// block lays out one block at width in base style.
func (r *renderer) block(n ast.Node, width int, base screen.Style) []Line {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return r.paragraph(n, width, base)
	case *ast.Heading:
		return r.heading(n, width, base)
	case *ast.ThematicBreak:
		return []Line{{{Text: strings.Repeat("─", width), Style: r.th.Rule}}}
	case *ast.Blockquote:
		inner := r.children(n, max(width-2, 1), over(base, r.th.Quote), false)
		if len(inner) == 0 {
			inner = []Line{nil}
		}
		gutter := Line{{Text: "│ ", Style: r.th.Quote}}
		out := indent(inner, gutter, gutter)
		for i, l := range out {
			if len(l) == 0 {
				out[i] = Line{{Text: "│", Style: r.th.Quote}}
			}
		}
		return out
	case *ast.List:
		return r.list(n, width, base)
	case *ast.FencedCodeBlock:
		return r.codeBlock(string(n.Language(r.src)), segmentsText(r.src, n.Lines()), width)
	case *ast.CodeBlock:
		return r.codeBlock("", segmentsText(r.src, n.Lines()), width)
	case *ast.HTMLBlock:
		src := segmentsText(r.src, n.Lines())
		if n.HasClosure() {
			src += string(n.ClosureLine.Value(r.src))
		}
		return Plain(src, width, base)
	case *east.Table:
		return r.table(n, width, base)
	case *ast.LinkReferenceDefinition:
		return nil
	}
	if n.HasChildren() {
		return r.children(n, width, base, false)
	}
	return Plain(segmentsText(r.src, n.Lines()), width, base)
}

// segmentsText returns the source text of segs.
func segmentsText(src []byte, segs *text.Segments) string {
	var b strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}

// paragraph wraps inline content, keeping hard breaks.
func (r *renderer) paragraph(n ast.Node, width int, base screen.Style) []Line {
	var out []Line
	for _, seg := range r.inlines(n, base) {
		out = append(out, Wrap(seg, width)...)
	}
	return out
}

// heading lays out a heading: bold in Heading, level 1 underlined, levels
// 3 and up after their "### " marker with a hanging indent.
func (r *renderer) heading(n *ast.Heading, width int, base screen.Style) []Line {
	st := over(base, r.th.Heading)
	marker := ""
	if n.Level >= 3 {
		marker = strings.Repeat("#", n.Level) + " "
	}
	text := st
	if n.Level == 1 {
		text.Attr |= screen.Underline
	}
	mw := len(marker)
	if mw >= width {
		marker, mw = "", 0
	}
	var lines []Line
	for _, seg := range r.inlines(n, text) {
		lines = append(lines, Wrap(seg, width-mw)...)
	}
	if mw == 0 {
		return lines
	}
	return indent(lines, Line{{Text: marker, Style: st}}, Line{{Text: strings.Repeat(" ", mw), Style: base}})
}
