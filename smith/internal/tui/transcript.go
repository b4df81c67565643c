package tui

import (
	"fmt"
	"strings"

	"github.com/smith-agent/smith/termkit/markdown"
	"github.com/smith-agent/smith/termkit/screen"
)

// kind is what a transcript item shows.
type kind uint8

const (
	kindUser kind = iota
	kindAssistant
	kindThinking
	kindTool
	kindNotice
	kindWarning
	kindError
	kindInfo
)

// item is one block of the transcript. Its layout is cached per width and
// version: a frame lays out only the items it shows, and an item that did
// not change since is reused as it is.
type item struct {
	kind kind
	text string // markdown for assistant text, plain for the rest

	// tool calls
	callID, name, args string
	output             string // the result, or the partial output while running
	done, failed       bool
	open               bool // shown whole (a click on it), as ctrl+o shows every item

	version int
	stream  *markdown.Stream // assistant text, laid out incrementally

	cacheW, cacheV, cacheX int
	lines                  []markdown.Line
}

// touch marks the item changed.
func (it *item) touch() { it.version++ }

// transcript is the conversation as drawn: the [widget.ScrollSource] of
// the view. Not safe for concurrent use (the app's loop owns it).
type transcript struct {
	items    []*item
	th       *Theme
	expanded bool // thinking and tool output shown whole (ctrl+o)
	epoch    int  // bumps when expanded flips, invalidating every layout
	match    *item
}

func (t *transcript) Len() int { return len(t.items) }

func (t *transcript) Height(i, width int) int { return len(t.layout(i, width)) }

func (t *transcript) DrawRow(b *screen.Buffer, i, row, x, y, width int) {
	lines := t.layout(i, width)
	if row < len(lines) {
		lines[row].Draw(b, x, y, x+width)
	}
	if t.items[i] == t.match && row == 0 {
		b.SetStyle(screen.Rect{X: x, Y: y, W: 1, H: 1}, t.th.Selection)
	}
}

func (t *transcript) add(it *item) *item {
	t.items = append(t.items, it)
	return it
}

// layout returns item i's lines at width, from the cache when valid. Every
// item ends with one blank line separating it from the next.
func (t *transcript) layout(i, width int) []markdown.Line {
	it := t.items[i]
	if it.lines != nil && it.cacheW == width && it.cacheV == it.version && it.cacheX == t.epoch {
		return it.lines
	}
	width = max(width, 1)
	var lines []markdown.Line
	switch it.kind {
	case kindUser:
		lines = prefixed(markdown.Plain(it.text, max(width-2, 1), t.th.User), "› ", "  ", t.th.UserMark)
	case kindAssistant:
		if it.stream == nil {
			it.stream = markdown.NewStream(t.th.Markdown)
		}
		lines = it.stream.Set(it.text, width)
	case kindThinking:
		lines = t.thinking(it, width)
	case kindTool:
		lines = t.tool(it, width)
	case kindNotice, kindInfo:
		lines = markdown.Plain(it.text, width, t.th.Notice)
	case kindWarning:
		lines = prefixed(markdown.Plain(it.text, max(width-2, 1), t.th.Warning), "! ", "  ", t.th.Warning)
	case kindError:
		lines = prefixed(markdown.Plain(it.text, max(width-2, 1), t.th.Error), "✗ ", "  ", t.th.Error)
	}
	lines = append(lines, nil)
	it.lines, it.cacheW, it.cacheV, it.cacheX = lines, width, it.version, t.epoch
	return lines
}

// prefixed puts first before the first line and rest before the others.
func prefixed(lines []markdown.Line, first, rest string, st screen.Style) []markdown.Line {
	out := make([]markdown.Line, len(lines))
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		out[i] = append(markdown.Line{{Text: p, Style: st}}, l...)
	}
	return out
}

// collapsedLines is how many lines of tool output a collapsed item shows.
const collapsedLines = 6

// collapsedDiffLines is how many lines of an edit's diff a collapsed
// item shows.
const collapsedDiffLines = 16

// expandedLines bounds an expanded item: the rest is one line saying how
// much was left out.
const expandedLines = 400

func (t *transcript) thinking(it *item, width int) []markdown.Line {
	n := strings.Count(strings.TrimSpace(it.text), "\n") + 1
	if !t.expanded && !it.open {
		head := fmt.Sprintf("∴ Thinking… (%d line%s, click or ctrl+o to show)", n, plural(n))
		return markdown.Plain(head, width, t.th.ThinkingHead)
	}
	lines := markdown.Plain("∴ Thinking", width, t.th.ThinkingHead)
	return append(lines, prefixed(markdown.Plain(strings.TrimSpace(it.text), max(width-2, 1), t.th.Thinking), "  ", "  ", t.th.Thinking)...)
}

func (t *transcript) tool(it *item, width int) []markdown.Line {
	mark, mst := "○", t.th.Dim
	switch {
	case it.done && it.failed:
		mark, mst = "✗", t.th.ToolErr
	case it.done:
		mark, mst = "●", t.th.ToolOK
	}
	head := markdown.Line{{Text: mark + " ", Style: mst}, {Text: it.name, Style: t.th.ToolName}}
	if it.args != "" {
		head = append(head, markdown.Span{Text: " " + it.args, Style: t.th.ToolArgs})
	}
	lines := markdown.Wrap(head, width)
	out := strings.TrimRight(it.output, "\n")
	if out == "" {
		if !it.done {
			lines = append(lines, markdown.Line{{Text: "  running…", Style: t.th.Dim}})
		}
		return lines
	}
	src := strings.Split(out, "\n")
	diff := it.name == "edit" || it.name == "write" || looksLikeDiff(src)
	limit := collapsedLines
	if diff {
		// A diff is the point of an edit: its file header goes, and more
		// of it shows.
		kept := src[:0:0]
		for _, l := range src {
			if !strings.HasPrefix(l, "--- ") && !strings.HasPrefix(l, "+++ ") {
				kept = append(kept, l)
			}
		}
		src, limit = kept, collapsedDiffLines
	}
	if t.expanded || it.open {
		limit = expandedLines
	}
	shown := src
	earlier := 0
	if len(shown) > limit {
		if it.done {
			shown = shown[:limit]
		} else {
			// A running tool shows its latest output, like a log.
			earlier = len(shown) - limit
			shown = shown[earlier:]
			lines = append(lines, markdown.Line{{Text: fmt.Sprintf("  … %d earlier line%s", earlier, plural(earlier)), Style: t.th.Dim}})
		}
	}
	for _, l := range shown {
		st := t.th.ToolOutput
		if it.failed {
			st = t.th.ToolErr
		}
		if diff {
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
				st = t.th.Dim
			case strings.HasPrefix(l, "+"):
				st = t.th.DiffAdd
			case strings.HasPrefix(l, "-"):
				st = t.th.DiffDel
			case strings.HasPrefix(l, "@@"):
				st = t.th.DiffHunk
			}
		}
		// Output lines are cut, not wrapped: a long log line costs one row.
		text := screen.Truncate(screen.Sanitize(strings.ReplaceAll(l, "\t", "    ")), max(width-4, 1), "…")
		lines = append(lines, markdown.Line{{Text: "  │ ", Style: t.th.Dim}, {Text: text, Style: st}})
	}
	if hidden := len(src) - len(shown) - earlier; hidden > 0 {
		hint := "click or ctrl+o to show"
		if t.expanded || it.open {
			hint = "the session holds the whole output"
		}
		lines = append(lines, markdown.Line{{Text: fmt.Sprintf("  … %d more line%s (%s)", hidden, plural(hidden), hint), Style: t.th.Dim}})
	}
	return lines
}

// looksLikeDiff reports whether lines hold a unified diff hunk.
func looksLikeDiff(lines []string) bool {
	for _, l := range lines[:min(len(lines), 8)] {
		if strings.HasPrefix(l, "@@ ") {
			return true
		}
	}
	return false
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// itemAt returns the item drawn at row y of a view whose top row is row
// top of item first, or -1.
func (t *transcript) itemAt(first, top, y, width int) int {
	for i := first; i < len(t.items); i++ {
		h := t.Height(i, width) - top
		if y < h {
			return i
		}
		y -= h
		top = 0
	}
	return -1
}

// find returns the index of the last item before from whose text holds q
// (case-insensitive), or -1.
func (t *transcript) find(q string, from int) int {
	q = strings.ToLower(q)
	for i := min(from, len(t.items)) - 1; i >= 0; i-- {
		it := t.items[i]
		if strings.Contains(strings.ToLower(it.text), q) || strings.Contains(strings.ToLower(it.output), q) ||
			strings.Contains(strings.ToLower(it.args), q) {
			return i
		}
	}
	return -1
}
