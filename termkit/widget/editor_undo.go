package widget

// maxUndo is the number of undo steps kept.
const maxUndo = 500

// edit is one undo step: at position at, removed was replaced by inserted;
// the cursor was before it and after it.
type edit struct {
	at                pos
	removed, inserted string
	before, after     pos
}

// edit replaces p..q by text (stored form), moves the cursor to the end of
// the insertion and records the step. Consecutive typing (typing true,
// inserted where the previous typing ended) extends one step.
func (e *Editor) edit(p, q pos, text string, typing bool) {
	e.init()
	removed := e.text(p, q)
	if removed == "" && text == "" {
		return
	}
	before := e.cur
	end := e.replace(p, q, text)
	e.cur = end
	e.redo = e.redo[:0]
	if typing && e.typing && len(e.undo) > 0 && removed == "" {
		last := &e.undo[len(e.undo)-1]
		if last.removed == "" && endOf(last.at, last.inserted) == p {
			last.inserted += text
			last.after = end
			return
		}
	}
	if len(e.undo) == maxUndo {
		e.undo = append(e.undo[:0], e.undo[1:]...)
	}
	e.undo = append(e.undo, edit{at: p, removed: removed, inserted: text, before: before, after: end})
	e.typing = typing
}

// Undo reverts the last step; it reports whether there was one.
func (e *Editor) Undo() bool {
	e.init()
	if len(e.undo) == 0 {
		return false
	}
	st := e.undo[len(e.undo)-1]
	e.undo = e.undo[:len(e.undo)-1]
	e.replace(st.at, endOf(st.at, st.inserted), st.removed)
	e.cur = e.clamp(st.before)
	e.redo = append(e.redo, st)
	e.typing = false
	return true
}

// Redo applies the last undone step again; it reports whether there was
// one.
func (e *Editor) Redo() bool {
	e.init()
	if len(e.redo) == 0 {
		return false
	}
	st := e.redo[len(e.redo)-1]
	e.redo = e.redo[:len(e.redo)-1]
	e.replace(st.at, endOf(st.at, st.removed), st.inserted)
	e.cur = e.clamp(st.after)
	e.undo = append(e.undo, st)
	e.typing = false
	return true
}

// clamp returns p limited to the text.
func (e *Editor) clamp(p pos) pos {
	p.line = min(max(p.line, 0), len(e.lines)-1)
	p.col = min(max(p.col, 0), len(e.lines[p.line]))
	return p
}
