// Package markdown lays out markdown (assistant answers) and plain text
// (tool output, user messages) as styled lines for a terminal.
//
// goldmark parses the source with the GFM extensions (tables,
// strikethrough, task lists, autolinks); a small lexer of this package
// (syntax.go) highlights fenced code blocks in common languages; this
// package does the layout itself. The output is [Line]s of
// [Span]s, each a sanitized single-line text with a [screen.Style]: there
// are no ANSI strings anywhere, so no input can make the output emit a
// control sequence. Control characters in the text, in code and in link
// URLs are drawn as visible pictures (ESC as "␛", see [screen.Sanitize]);
// the URL stored in [screen.Style].Link has them removed.
//
// # Layout
//
//   - Headings are bold in [Theme].Heading; level 1 is also underlined,
//     levels 3 to 6 keep their "### " marker so the hierarchy stays visible.
//   - Paragraphs are word-wrapped ([Wrap]); soft line breaks become spaces,
//     hard breaks are kept.
//   - Links are drawn as their text with Style.Link set to the URL (the
//     renderer emits OSC 8 where the terminal supports it). Whether the
//     terminal supports hyperlinks cannot be detected reliably, so when the
//     text differs from the URL (ignoring the scheme, "mailto:" and a
//     trailing slash) " (url)" follows the text, dimmed; set
//     [Theme].HideLinkURLs to drop it. Fragment-only links ("#top") never
//     print their URL. Images are drawn as "[image: alt]" with the same
//     rule.
//   - Lists use "•", "◦", "▪" by depth, or right-aligned numbers, with a
//     hanging indent; task items show "☐" or "☑" in place of the bullet.
//   - Block quotes get a "│ " gutter.
//   - Code blocks are indented by 2, preceded by a dim language label when
//     there is one, highlighted ([Theme].Syntax), tabs expanded to
//     4 columns, and never wrapped: long lines are cut with "…".
//   - Tables get box-drawing borders and a styled header; when the table is
//     wider than the width the widest columns shrink and their cells wrap.
//   - A thematic break is a full-width "─" rule.
//   - HTML, block or inline, is shown as plain text, never interpreted.
//
// Every line [Render] returns is at most width columns wide, measured with
// [screen.Width]; content that cannot fit even so (deep nesting, a table
// with many columns at a tiny width) is clipped.
//
// [Stream] renders a growing document incrementally and returns exactly
// what [Render] returns for the same source.
//
// # Getting Started
//
//	lines := markdown.Render(answer, width, markdown.DefaultTheme())
//	for y, l := range lines {
//		l.Draw(buf, 0, y, width)
//	}
//
// # Concurrency
//
// [Render], [Wrap] and [Plain] are safe for concurrent use; they share
// no mutable state. A [Stream] is not safe for
// concurrent use. Returned lines share their spans with internal caches
// and must not be modified.
package markdown
