package widget

import (
	"unicode"
	"unicode/utf8"

	"github.com/smith-agent/smith/termkit/input"
)

// HandleKey applies k (see [Editor] for the bindings) and reports whether
// it was consumed. Enter without shift or alt, tab, esc, releases, keys
// with super and unbound keys are not consumed, and neither are up/down
// when there is nowhere to go (no row and no history entry in that
// direction), so the app may use them.
func (e *Editor) HandleKey(k input.Key) bool {
	e.init()
	if k.Event == input.Release || k.Mod&input.ModSuper != 0 {
		return false
	}
	ctrl, alt, shift := k.Mod&input.ModCtrl != 0, k.Mod&input.ModAlt != 0, k.Mod&input.ModShift != 0
	if k.Text != "" && !ctrl && !alt {
		e.vert = false
		e.insertTyped(k.Text)
		return true
	}
	vert, consumed := false, true
	code := k.Code
	if ctrl || alt {
		code = unicode.ToLower(code)
	}
	switch {
	case code == input.KeyEnter:
		if !(shift || alt) || ctrl {
			return false
		}
		e.newline()
	case ctrl && !alt && (code == 'j' || code == '\n'):
		e.newline()
	case code == input.KeyBackspace || (ctrl && !alt && code == 'h'):
		if alt || (ctrl && code == input.KeyBackspace) {
			e.deleteTo(e.wordLeft(e.cur))
		} else {
			e.deleteTo(e.charLeft(e.cur))
		}
	case code == input.KeyDelete:
		if alt || ctrl {
			e.deleteTo(e.wordRight(e.cur))
		} else {
			e.deleteTo(e.charRight(e.cur))
		}
	case ctrl && !alt && code == 'd':
		if e.Empty() {
			return false
		}
		e.deleteTo(e.charRight(e.cur))
	case code == input.KeyLeft && (ctrl || alt), alt && !ctrl && code == 'b':
		e.move(e.wordLeft(e.cur))
	case code == input.KeyRight && (ctrl || alt), alt && !ctrl && code == 'f':
		e.move(e.wordRight(e.cur))
	case code == input.KeyLeft && !shift, ctrl && !alt && code == 'b':
		e.move(e.charLeft(e.cur))
	case code == input.KeyRight && !shift, ctrl && !alt && code == 'f':
		e.move(e.charRight(e.cur))
	case code == input.KeyUp && !ctrl && !alt && !shift:
		consumed, vert = e.vertical(-1)
	case code == input.KeyDown && !ctrl && !alt && !shift:
		consumed, vert = e.vertical(+1)
	case code == input.KeyHome && ctrl:
		e.move(pos{})
	case code == input.KeyEnd && ctrl:
		last := len(e.lines) - 1
		e.move(pos{last, len(e.lines[last])})
	case code == input.KeyHome, ctrl && !alt && code == 'a':
		e.move(pos{e.cur.line, 0})
	case code == input.KeyEnd, ctrl && !alt && code == 'e':
		e.move(pos{e.cur.line, len(e.lines[e.cur.line])})
	case ctrl && !alt && code == 'w':
		e.deleteTo(e.wordLeft(e.cur))
	case alt && !ctrl && code == 'd':
		e.deleteTo(e.wordRight(e.cur))
	case ctrl && !alt && code == 'u':
		if e.cur.col == 0 {
			e.deleteTo(e.charLeft(e.cur))
		} else {
			e.deleteTo(pos{e.cur.line, 0})
		}
	case ctrl && !alt && code == 'k':
		if e.cur.col == len(e.lines[e.cur.line]) {
			e.deleteTo(e.charRight(e.cur))
		} else {
			e.deleteTo(pos{e.cur.line, len(e.lines[e.cur.line])})
		}
	case ctrl && !alt && code == 'z' && shift, alt && !ctrl && code == 'z':
		e.Redo()
	case ctrl && !alt && (code == 'z' || code == '_' || code == '/' || (code == '-' && shift)):
		e.Undo()
	default:
		return false
	}
	if consumed {
		e.typing, e.vert = false, vert
	}
	return consumed
}

// newline inserts a line break at the cursor.
func (e *Editor) newline() { e.edit(e.cur, e.cur, "\n", false) }

// move puts the cursor at p.
func (e *Editor) move(p pos) { e.cur = e.clamp(p) }

// deleteTo deletes between the cursor and p.
func (e *Editor) deleteTo(p pos) {
	p = e.clamp(p)
	if p == e.cur {
		return
	}
	a, b := p, e.cur
	if b.less(a) {
		a, b = b, a
	}
	e.edit(a, b, "", false)
}

// charLeft returns the position one grapheme cluster before p.
func (e *Editor) charLeft(p pos) pos {
	if p.col > 0 {
		return pos{p.line, clusterBefore(e.lines[p.line], p.col)}
	}
	if p.line > 0 {
		return pos{p.line - 1, len(e.lines[p.line-1])}
	}
	return p
}

// charRight returns the position one grapheme cluster after p.
func (e *Editor) charRight(p pos) pos {
	if line := e.lines[p.line]; p.col < len(line) {
		return pos{p.line, clusterAfter(line, p.col)}
	}
	if p.line+1 < len(e.lines) {
		return pos{p.line + 1, 0}
	}
	return p
}

// The word classes of a cluster.
const (
	classSpace = iota
	classWord
	classMarker
)

func classOf(g string, k clusterKind) int {
	if k == kindMarker {
		return classMarker
	}
	r, _ := utf8.DecodeRuneInString(g)
	if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
		return classWord
	}
	return classSpace
}

// wordLeft returns the start of the word before p; at a line start, the
// end of the previous line.
func (e *Editor) wordLeft(p pos) pos {
	if p.col == 0 {
		return e.charLeft(p)
	}
	line := e.lines[p.line]
	type cl struct{ start, class int }
	var buf [64]cl
	cls := buf[:0]
	walkClusters(line, 0, func(a, b int, k clusterKind) bool {
		if a >= p.col {
			return false
		}
		cls = append(cls, cl{a, classOf(line[a:b], k)})
		return true
	})
	i := len(cls) - 1
	for i >= 0 && cls[i].class == classSpace {
		i--
	}
	if i < 0 {
		return pos{p.line, 0}
	}
	if cls[i].class == classMarker {
		return pos{p.line, cls[i].start}
	}
	for i >= 0 && cls[i].class == classWord {
		i--
	}
	return pos{p.line, cls[i+1].start}
}

// wordRight returns the end of the word after p; at a line end, the start
// of the next line.
func (e *Editor) wordRight(p pos) pos {
	line := e.lines[p.line]
	if p.col == len(line) {
		return e.charRight(p)
	}
	end, seen := len(line), -1
	walkClusters(line, p.col, func(a, b int, k clusterKind) bool {
		c := classOf(line[a:b], k)
		switch {
		case seen < 0 && c == classSpace:
			return true
		case seen < 0 && c == classMarker:
			end = b
			return false
		case seen < 0:
			seen = c
			return true
		case c != classWord:
			end = a
			return false
		}
		return true
	})
	return pos{p.line, end}
}

// vertical moves the cursor one visual row up (dir -1) or down (+1),
// browsing the history past the first or last row. It reports whether
// anything happened and whether the column goal should be kept.
func (e *Editor) vertical(dir int) (moved, keepGoal bool) {
	w := e.width
	if w <= 0 {
		w = noWrap
	}
	row, x := e.locate(e.cur, w)
	goal := x
	if e.vert {
		goal = e.goalX
	}
	e.goalX = goal
	switch {
	case dir < 0 && row > 0:
		e.cur.col = e.colAt(e.cur.line, row-1, goal, w)
	case dir < 0 && e.cur.line > 0:
		l := e.cur.line - 1
		e.cur = pos{l, e.colAt(l, e.rowCount(l, w)-1, goal, w)}
	case dir < 0:
		if e.histIdx == 0 {
			return false, false
		}
		e.recall(e.histIdx - 1)
		return true, false
	case row+1 < e.rowCount(e.cur.line, w):
		e.cur.col = e.colAt(e.cur.line, row+1, goal, w)
	case e.cur.line+1 < len(e.lines):
		l := e.cur.line + 1
		e.cur = pos{l, e.colAt(l, 0, goal, w)}
	default:
		if e.histIdx >= len(e.history) {
			return false, false
		}
		e.recall(e.histIdx + 1)
		return true, false
	}
	return true, true
}
