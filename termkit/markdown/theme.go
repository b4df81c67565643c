package markdown

import "github.com/smith-agent/smith/termkit/screen"

// Theme is how markdown is styled. Block styles are laid over the style of
// the enclosing block (text inside a quote keeps [Theme].Quote, a link
// inside a heading keeps the heading's boldness). The zero Theme draws
// everything in the terminal's default style, without highlighting, and
// prints link URLs.
type Theme struct {
	// Text is the base style of all prose.
	Text screen.Style
	// Heading styles headings; level 1 adds underline.
	Heading screen.Style
	// Strong, Emph and Strike style **strong**, *emphasis* and ~~strike~~.
	Strong, Emph, Strike screen.Style
	// Code styles `inline code`.
	Code screen.Style
	// CodeBlock is the base style of code blocks: the whole text when
	// there is no highlighting, the tokens the lexer leaves uncoloured
	// otherwise.
	CodeBlock screen.Style
	// CodeLabel styles the language label above a code block and the "…"
	// that marks a cut line.
	CodeLabel screen.Style
	// Quote styles block quotes: the gutter and, laid over Text, the text.
	Quote screen.Style
	// Link styles link text; Style.Link is set to the URL on top of it.
	Link screen.Style
	// ListMarker styles bullets, numbers and task boxes.
	ListMarker screen.Style
	// Rule styles thematic breaks.
	Rule screen.Style
	// TableBorder and TableHeader style table borders and header cells.
	TableBorder, TableHeader screen.Style
	// Syntax styles the tokens of code blocks in a known language (see
	// syntax.go for the languages); the zero value draws code plain.
	Syntax SyntaxTheme
	// HideLinkURLs drops the " (url)" printed after a link whose text
	// differs from its URL. Set it only when the terminal is known to
	// show OSC 8 hyperlinks.
	HideLinkURLs bool
}

// DefaultTheme returns the default theme: basic indexed colours (which
// terminal colour schemes adapt to light and dark backgrounds), dim
// decorations, and syntax colours from the same palette.
func DefaultTheme() Theme {
	return Theme{
		Heading:     screen.Style{Fg: screen.Indexed(5), Attr: screen.Bold},
		Strong:      screen.Style{Attr: screen.Bold},
		Emph:        screen.Style{Attr: screen.Italic},
		Strike:      screen.Style{Attr: screen.Strike},
		Code:        screen.Style{Fg: screen.Indexed(6)},
		CodeLabel:   screen.Style{Attr: screen.Dim},
		Quote:       screen.Style{Fg: screen.Indexed(2), Attr: screen.Italic},
		Link:        screen.Style{Fg: screen.Indexed(4), Attr: screen.Underline},
		ListMarker:  screen.Style{Fg: screen.Indexed(3)},
		Rule:        screen.Style{Attr: screen.Dim},
		TableBorder: screen.Style{Attr: screen.Dim},
		TableHeader: screen.Style{Attr: screen.Bold},
		Syntax: SyntaxTheme{
			Keyword:  screen.Style{Fg: screen.Indexed(5)},
			Type:     screen.Style{Fg: screen.Indexed(6)},
			Builtin:  screen.Style{Fg: screen.Indexed(3)},
			Function: screen.Style{Fg: screen.Indexed(4)},
			String:   screen.Style{Fg: screen.Indexed(2)},
			Number:   screen.Style{Fg: screen.Indexed(3)},
			Comment:  screen.Style{Attr: screen.Dim | screen.Italic},
			DiffAdd:  screen.Style{Fg: screen.Indexed(2)},
			DiffDel:  screen.Style{Fg: screen.Indexed(1)},
			DiffHunk: screen.Style{Fg: screen.Indexed(6)},
		},
	}
}

// over lays s over base: colours and link of s win where set, attributes
// add up.
func over(base, s screen.Style) screen.Style {
	if !s.Fg.IsDefault() {
		base.Fg = s.Fg
	}
	if !s.Bg.IsDefault() {
		base.Bg = s.Bg
	}
	base.Attr |= s.Attr
	if s.Link != "" {
		base.Link = s.Link
	}
	return base
}
