package markdown

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/smith-agent/smith/termkit/screen"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// inlines collects n's inline content as spans, one slice per visual
// line: hard line breaks start a new slice.
func (r *renderer) inlines(n ast.Node, base screen.Style) [][]Span {
	c := collector{r: r}
	c.walk(n, base)
	return append(c.segs, c.cur)
}

type collector struct {
	r    *renderer
	segs [][]Span
	cur  []Span
}

func (c *collector) add(s string, st screen.Style) {
	if s != "" {
		c.cur = append(c.cur, Span{Text: s, Style: st})
	}
}

func (c *collector) breakLine() {
	c.segs = append(c.segs, c.cur)
	c.cur = nil
}

// text returns the text added since span i of the current line.
func (c *collector) text(i int) string {
	var b strings.Builder
	for _, s := range c.cur[min(i, len(c.cur)):] {
		b.WriteString(s.Text)
	}
	return b.String()
}

func (c *collector) walk(n ast.Node, st screen.Style) {
	th, src := c.r.th, c.r.src
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		switch k := k.(type) {
		case *ast.Text:
			c.add(unescape(k.Segment.Value(src)), st)
			switch {
			case k.HardLineBreak():
				c.breakLine()
			case k.SoftLineBreak():
				c.add(" ", st)
			}
		case *ast.String:
			c.add(string(k.Value), st)
		case *ast.CodeSpan:
			c.add(rawText(src, k), over(st, th.Code))
		case *ast.Emphasis:
			e := th.Emph
			if k.Level >= 2 {
				e = th.Strong
			}
			c.walk(k, over(st, e))
		case *east.Strikethrough:
			c.walk(k, over(st, th.Strike))
		case *ast.Link:
			url := unescape(k.Destination)
			i, line := len(c.cur), len(c.segs)
			c.walk(k, c.linkStyle(st, url))
			label := ""
			if line == len(c.segs) {
				label = c.text(i)
			}
			c.url(st, label, url)
		case *ast.Image:
			url := unescape(k.Destination)
			alt := collector{r: c.r}
			alt.walk(k, st)
			var b strings.Builder
			for _, seg := range append(alt.segs, alt.cur) {
				for _, s := range seg {
					b.WriteString(s.Text)
				}
			}
			label := "[image: " + b.String() + "]"
			c.add(label, c.linkStyle(st, url))
			c.url(st, b.String(), url)
		case *ast.AutoLink:
			url := string(k.URL(src))
			if k.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
				url = "mailto:" + url
			}
			label := string(k.Label(src))
			c.add(label, c.linkStyle(st, url))
			c.url(st, label, url)
		case *ast.RawHTML:
			var b strings.Builder
			for i := 0; i < k.Segments.Len(); i++ {
				seg := k.Segments.At(i)
				b.Write(seg.Value(src))
			}
			c.add(strings.ReplaceAll(b.String(), "\n", " "), st)
		case *east.TaskCheckBox:
			// drawn by the list as the item's marker
		default:
			c.walk(k, st)
		}
	}
}

// linkStyle is st as link text pointing to url.
func (c *collector) linkStyle(st screen.Style, url string) screen.Style {
	st = over(st, c.r.th.Link)
	st.Link = safeURL(url)
	return st
}

// url prints " (url)" after a link whose label differs from its URL,
// unless the theme hides URLs.
func (c *collector) url(st screen.Style, label, url string) {
	if c.r.th.HideLinkURLs || url == "" || strings.HasPrefix(url, "#") || sameURL(label, url) {
		return
	}
	ls := c.linkStyle(st, url)
	ls.Attr |= screen.Dim
	c.add(" ", st)
	c.add("("+url+")", ls)
}

// sameURL reports whether a link label shows its URL already, ignoring
// the scheme, "mailto:" and a trailing slash.
func sameURL(label, url string) bool {
	norm := func(s string) string {
		for _, p := range []string{"mailto:", "https://", "http://"} {
			if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
				s = s[len(p):]
				break
			}
		}
		return strings.TrimSuffix(s, "/")
	}
	return norm(strings.TrimSpace(label)) == norm(url)
}

// maxURL is the longest URL kept in Style.Link; longer ones are not
// linked (they are still printed).
const maxURL = 8192

// safeURL returns url fit for Style.Link: valid UTF-8 without C0, DEL or
// C1 controls, or "" when it is too long.
func safeURL(url string) string {
	if len(url) > maxURL {
		return ""
	}
	clean := true
	for i := 0; i < len(url); i++ {
		if c := url[i]; c < 0x20 || c == 0x7F || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return url
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(url, "\uFFFD") {
		if r < 0x20 || (r >= 0x7F && r < 0xA0) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// rawText returns the text of a code span: its children's source, line
// breaks as spaces, without unescaping.
func rawText(src []byte, n ast.Node) string {
	var b strings.Builder
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		switch k := k.(type) {
		case *ast.Text:
			b.Write(k.Segment.Value(src))
		case *ast.String:
			b.Write(k.Value)
		}
	}
	return strings.ReplaceAll(b.String(), "\n", " ")
}

// unescape resolves backslash escapes and entity and numeric character
// references in inline text, as CommonMark renders them.
func unescape(b []byte) string {
	if bytes.IndexByte(b, '\\') < 0 && bytes.IndexByte(b, '&') < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' && i+1 < len(b) && util.IsPunct(b[i+1]) {
			out = append(out, b[i+1])
			i++
			continue
		}
		if c == '&' {
			if j := bytes.IndexByte(b[i:], ';'); j > 1 && j <= 40 {
				ref := b[i : i+j+1]
				res := util.ResolveNumericReferences(ref)
				if bytes.Equal(res, ref) {
					res = util.ResolveEntityNames(ref)
				}
				if !bytes.Equal(res, ref) && utf8.Valid(res) {
					out = append(out, res...)
					i += j
					continue
				}
			}
		}
		out = append(out, c)
	}
	return string(out)
}
