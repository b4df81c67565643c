package markdown

import (
	"strconv"
	"strings"

	"github.com/smith-agent/smith/termkit/screen"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// bullets are the bullet glyphs by list depth, repeating.
var bullets = [...]string{"•", "◦", "▪"}

// list lays out a list: each item after its marker with a hanging indent,
// numbers right-aligned, task items marked "☐" or "☑" instead of a
// bullet (after the number in ordered lists).
func (r *renderer) list(l *ast.List, width int, base screen.Style) []Line {
	r.depth++
	defer func() { r.depth-- }()
	ordered := l.IsOrdered()
	numW := 0
	if ordered {
		numW = len(strconv.Itoa(l.Start + l.ChildCount() - 1))
	}
	mst := over(base, r.th.ListMarker)
	var chunks [][]Line
	i := 0
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := bullets[(r.depth-1)%len(bullets)] + " "
		if ordered {
			num := strconv.Itoa(l.Start + i)
			marker = strings.Repeat(" ", max(numW-len(num), 0)) + num + string(l.Marker) + " "
		}
		if checked, ok := taskBox(item); ok {
			box := "☐ "
			if checked {
				box = "☑ "
			}
			if ordered {
				marker += box
			} else {
				marker = box
			}
		}
		mw := screen.Width(marker)
		body := r.children(item, max(width-mw, 1), base, l.IsTight)
		first := Line{{Text: marker, Style: mst}}
		if len(body) == 0 || len(body[0]) == 0 {
			first[0].Text = strings.TrimRight(marker, " ")
			if len(body) == 0 {
				body = []Line{nil}
			}
		}
		chunks = append(chunks, indent(body, first, Line{{Text: strings.Repeat(" ", mw), Style: base}}))
		i++
	}
	if !l.IsTight {
		return join(chunks)
	}
	var out []Line
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out
}

// taskBox reports whether item is a task item, and whether it is checked.
func taskBox(item ast.Node) (checked, ok bool) {
	first := item.FirstChild()
	if first == nil {
		return false, false
	}
	if box, is := first.FirstChild().(*east.TaskCheckBox); is {
		return box.IsChecked, true
	}
	return false, false
}
