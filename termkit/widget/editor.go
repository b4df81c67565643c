package widget

import (
	"slices"
	"strings"

	"github.com/smith-agent/smith/termkit/screen"
)

// Paste limits: a paste with more lines or bytes than these is inserted as
// one marker token.
const (
	PasteMarkerLines = 10
	PasteMarkerBytes = 1000
)

// Editor is a multi-line text input: the prompt box of a chat UI.
//
// The text is kept as a slice of lines, so an edit costs O(length of the
// edited line) whatever the total size; drawing lays out only the rows it
// shows and the cursor's line. The zero value is an empty editor ready for
// use. Not safe for concurrent use.
//
// Keys (see [Editor.HandleKey]): printable text inserts; shift+enter,
// alt+enter and ctrl+j insert a newline (plain enter is left to the app to
// submit); backspace/ctrl+h and delete remove one grapheme cluster;
// left/right and ctrl+b/ctrl+f move by grapheme cluster; up/down move by
// visual row and browse the history from the first/last row; home/end and
// ctrl+a/ctrl+e go to the line start/end, ctrl+home/ctrl+end to the text
// start/end; alt+left/alt+right, ctrl+left/ctrl+right and alt+b/alt+f jump
// by word; ctrl+w, alt+backspace and ctrl+backspace delete the word
// before the cursor, alt+d and ctrl+delete the word after; ctrl+u deletes
// to the line start and ctrl+k to the line end (at the start/end they join
// the line with its neighbour); ctrl+d deletes forward when the text is not
// empty; ctrl+z and ctrl+_ undo, ctrl+shift+z and alt+z redo.
//
// A word is a run of letters, digits and underscores; a paste marker is a
// word of its own.
type Editor struct {
	// Placeholder is drawn in PlaceholderStyle when the text is empty.
	Placeholder string
	// MaxHeight is the number of rows Draw may use at most; 0 means 8.
	MaxHeight int
	// Prompt is drawn before the first line, e.g. "> "; continuation rows
	// are indented by its width. It is dropped when the area is not wider
	// than it.
	Prompt string
	// Style is the style of the text and of the area's empty cells.
	Style screen.Style
	// PromptStyle is the style of Prompt.
	PromptStyle screen.Style
	// PlaceholderStyle is the style of Placeholder.
	PlaceholderStyle screen.Style
	// MarkerStyle is the style of paste markers.
	MarkerStyle screen.Style

	lines []string // never empty once init ran
	cur   pos

	pastes  map[int]*paste
	npastes int

	undo, redo []edit
	typing     bool // the last edit was typing and may be extended

	history []string
	histIdx int // len(history) while editing the draft
	draft   string

	width int  // text width at the last Draw, 0 before
	goalX int  // the column up/down aim for
	vert  bool // the last key was up or down
	top   pos  // first visible row: line and row index (col holds the row)

	widths widthCache
	rows   []int // scratch for wrap
	counts []rowCountEntry
}

func (e *Editor) init() {
	if e.lines == nil {
		e.lines = []string{""}
		e.histIdx = len(e.history)
	}
}

func (e *Editor) maxHeight() int {
	if e.MaxHeight <= 0 {
		return 8
	}
	return e.MaxHeight
}

// text returns the stored text between p and q (p ≤ q), markers unexpanded.
func (e *Editor) text(p, q pos) string {
	if p.line == q.line {
		return e.lines[p.line][p.col:q.col]
	}
	var b strings.Builder
	b.WriteString(e.lines[p.line][p.col:])
	for l := p.line + 1; l < q.line; l++ {
		b.WriteByte('\n')
		b.WriteString(e.lines[l])
	}
	b.WriteByte('\n')
	b.WriteString(e.lines[q.line][:q.col])
	return b.String()
}

// endOf returns the position after text inserted at p.
func endOf(p pos, text string) pos {
	n := strings.Count(text, "\n")
	if n == 0 {
		return pos{p.line, p.col + len(text)}
	}
	return pos{p.line + n, len(text) - strings.LastIndexByte(text, '\n') - 1}
}

// replace swaps the text between p and q (p ≤ q) for text (stored form) and
// returns the end of the inserted text. No undo is recorded.
func (e *Editor) replace(p, q pos, text string) pos {
	prefix, suffix := e.lines[p.line][:p.col], e.lines[q.line][q.col:]
	if p.line == q.line && strings.IndexByte(text, '\n') < 0 {
		e.lines[p.line] = prefix + text + suffix
		return pos{p.line, p.col + len(text)}
	}
	parts := strings.Split(text, "\n")
	end := pos{p.line + len(parts) - 1, len(parts[len(parts)-1])}
	if len(parts) == 1 {
		end.col += len(prefix)
	}
	parts[0] = prefix + parts[0]
	parts[len(parts)-1] += suffix
	e.lines = slices.Replace(e.lines, p.line, q.line+1, parts...)
	return end
}

// setAll replaces the whole text (stored form) as one undo step and puts
// the cursor at the end.
func (e *Editor) setAll(text string) {
	e.init()
	last := len(e.lines) - 1
	e.edit(pos{}, pos{last, len(e.lines[last])}, text, false)
}

// Value returns the text with paste markers expanded.
func (e *Editor) Value() string {
	e.init()
	return e.expand(strings.Join(e.lines, "\n"))
}

// expand replaces the markers in stored text s by their pastes.
func (e *Editor) expand(s string) string {
	if strings.IndexByte(s, markerByte) < 0 {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, markerByte)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		if p := e.pastes[decodeMarker(s[i:])]; p != nil {
			b.WriteString(p.text)
		}
		s = s[min(i+markerLen, len(s)):]
	}
}

// SetValue replaces the text by s (sanitized as a paste is, but never
// turned into a marker) as one undo step and puts the cursor at the end.
// It leaves history browsing.
func (e *Editor) SetValue(s string) {
	e.setAll(sanitizeInput(s, true))
	e.leaveHistory()
}

// Reset clears the text as one undo step and leaves history browsing.
func (e *Editor) Reset() {
	e.setAll("")
	e.leaveHistory()
}

// Empty reports whether the text is empty.
func (e *Editor) Empty() bool {
	return len(e.lines) <= 1 && (len(e.lines) == 0 || e.lines[0] == "")
}

// Paste inserts text at the cursor as one undo step. Line endings are
// normalised (CRLF and CR become LF), tabs are kept, other control
// characters and invalid UTF-8 are dropped. A paste of more than
// [PasteMarkerLines] lines or [PasteMarkerBytes] bytes is inserted as one
// marker token "[paste #N +L lines]", drawn in MarkerStyle, which
// [Editor.Value] expands to the full text and which backspace removes
// whole.
func (e *Editor) Paste(text string) {
	e.init()
	text = sanitizeInput(text, true)
	if text == "" {
		return
	}
	if countLines(text) > PasteMarkerLines || len(text) > PasteMarkerBytes {
		if e.npastes+1 < maxMarkers {
			e.npastes++
			if e.pastes == nil {
				e.pastes = map[int]*paste{}
			}
			label := pasteLabel(e.npastes, text)
			e.pastes[e.npastes] = &paste{text: text, label: label, width: screen.Width(label)}
			text = encodeMarker(e.npastes)
		}
	}
	e.edit(e.cur, e.cur, text, false)
}

// insertTyped inserts typed text, merging with the previous typing step.
func (e *Editor) insertTyped(text string) {
	text = sanitizeInput(text, false)
	if text == "" {
		return
	}
	e.edit(e.cur, e.cur, text, true)
}

// SetHistory replaces the history by entries, oldest first (consecutive
// duplicates and empty entries are dropped), and leaves history browsing.
func (e *Editor) SetHistory(entries []string) {
	e.history = e.history[:0]
	for _, s := range entries {
		e.appendHistory(s)
	}
	e.leaveHistory()
}

// AddHistory appends s to the history unless it is empty or equal to the
// newest entry, and leaves history browsing (the next up recalls s).
func (e *Editor) AddHistory(s string) {
	e.appendHistory(s)
	e.leaveHistory()
}

func (e *Editor) appendHistory(s string) {
	if strings.TrimSpace(s) == "" || (len(e.history) > 0 && e.history[len(e.history)-1] == s) {
		return
	}
	e.history = append(e.history, s)
}

func (e *Editor) leaveHistory() {
	e.histIdx = len(e.history)
	e.draft = ""
}

// recall shows history entry i, or the draft when i == len(history).
func (e *Editor) recall(i int) {
	if e.histIdx == len(e.history) {
		e.draft = strings.Join(e.lines, "\n")
	}
	e.histIdx = i
	if i == len(e.history) {
		e.setAll(e.draft)
		e.draft = ""
		return
	}
	e.setAll(sanitizeInput(e.history[i], true))
}
