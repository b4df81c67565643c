package sse

import "bytes"

// Kind tells what an [Item] is.
type Kind uint8

// The item kinds.
const (
	// KindEvent is a dispatched SSE event.
	KindEvent Kind = iota
	// KindText is one line that is neither an SSE field, a comment nor
	// blank (without its line ending).
	KindText
)

// Item is what the framer reports. Its byte slices are valid only during
// the callback that receives it.
type Item struct {
	Kind Kind
	// Name is the event's "event:" value, empty when none was given.
	Name []byte
	// Data is the event's data lines joined by LF, or the text line.
	Data []byte
	// Done reports that Data is the "[DONE]" sentinel; such events are
	// still delivered.
	Done bool
}

// LineEndings is the line-ending style seen in a body.
type LineEndings string

// The line-ending styles.
const (
	EndingsNone  LineEndings = ""
	EndingsLF    LineEndings = "LF"
	EndingsCRLF  LineEndings = "CRLF"
	EndingsCR    LineEndings = "CR"
	EndingsMixed LineEndings = "mixed"
)

// Stats are the framing facts of the body fed so far.
type Stats struct {
	LineEndings  LineEndings
	EventLines   bool // an "event:" field was seen
	Events       int  // dispatched events, the [DONE] sentinel excluded
	CommentLines int
	Done         bool // a "data: [DONE]" event was seen
	NonSSE       bool // at least one non-SSE text line was seen
	Bytes        int64
}

// Framer splits a byte stream into SSE items. The zero Framer is ready; it
// is not safe for concurrent use. Its buffers grow to the longest line and
// the largest event seen and are reused.
type Framer struct {
	line      []byte // partial line carried over between chunks
	pendingCR bool   // the last byte fed was CR: a following LF belongs to it
	name      []byte
	data      []byte
	hasData   bool
	closed    bool
	stats     Stats
}

// Stats returns the framing facts so far.
func (f *Framer) Stats() Stats { return f.stats }

// Feed consumes chunk and calls emit for every complete item in it.
func (f *Framer) Feed(chunk []byte, emit func(Item)) {
	f.stats.Bytes += int64(len(chunk))
	// lf is the index in chunk of the next LF, -1 when there is none left;
	// it is searched for once, not again for every CR-ended line before
	// it. Two bytes.IndexByte scans cost a fraction of one
	// bytes.IndexAny(chunk, "\r\n"), which tests every byte against a set.
	lf := bytes.IndexByte(chunk, '\n')
	for len(chunk) > 0 {
		if f.pendingCR {
			f.pendingCR = false
			if chunk[0] == '\n' {
				f.ending(EndingsCRLF)
				chunk, lf = skipLF(chunk, lf, 1)
				continue
			}
			f.ending(EndingsCR)
		}
		head := chunk
		if lf >= 0 {
			head = chunk[:lf]
		}
		i := bytes.IndexByte(head, '\r')
		if i < 0 {
			i = lf
		}
		if i < 0 {
			f.line = append(f.line, chunk...)
			return
		}
		var line []byte
		if len(f.line) > 0 {
			f.line = append(f.line, chunk[:i]...)
			line = f.line
		} else {
			line = chunk[:i]
		}
		if chunk[i] == '\r' {
			f.pendingCR = true
		} else {
			f.ending(EndingsLF)
		}
		chunk, lf = skipLF(chunk, lf, i+1)
		f.processLine(line, emit)
		f.line = f.line[:0]
	}
}

// skipLF drops the first n bytes of chunk and returns the rest with the
// index of its next LF, given lf, the index in chunk of the next LF (-1
// for none): only when that LF itself is dropped is the rest searched.
func skipLF(chunk []byte, lf, n int) ([]byte, int) {
	chunk = chunk[n:]
	if lf < 0 {
		return chunk, -1
	}
	if lf -= n; lf < 0 {
		lf = bytes.IndexByte(chunk, '\n')
	}
	return chunk, lf
}

// Close ends the body: a pending partial line is processed and an event
// whose data was not yet dispatched (no final blank line) is dispatched.
// Feed must not be called after Close.
func (f *Framer) Close(emit func(Item)) {
	if f.closed {
		return
	}
	f.closed = true
	if f.pendingCR {
		f.pendingCR = false
		f.ending(EndingsCR)
	}
	if len(f.line) > 0 {
		f.processLine(f.line, emit)
		f.line = f.line[:0]
	}
	f.dispatch(emit)
}

func (f *Framer) ending(e LineEndings) {
	switch f.stats.LineEndings {
	case EndingsNone:
		f.stats.LineEndings = e
	case e, EndingsMixed:
	default:
		f.stats.LineEndings = EndingsMixed
	}
}

func (f *Framer) processLine(line []byte, emit func(Item)) {
	if len(line) == 0 {
		f.dispatch(emit)
		return
	}
	if line[0] == ':' {
		f.stats.CommentLines++
		return
	}
	field, value := line, []byte(nil)
	if c := bytes.IndexByte(line, ':'); c >= 0 {
		field, value = line[:c], line[c+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "data":
		if f.hasData {
			f.data = append(f.data, '\n')
		}
		f.data = append(f.data, value...)
		f.hasData = true
	case "event":
		f.name = append(f.name[:0], value...)
		f.stats.EventLines = true
	case "id", "retry":
		// Accepted and unused: provider streams are not resumed.
	default:
		f.stats.NonSSE = true
		emit(Item{Kind: KindText, Data: line})
	}
}

func (f *Framer) dispatch(emit func(Item)) {
	if !f.hasData {
		f.name = f.name[:0]
		return
	}
	it := Item{Kind: KindEvent, Name: f.name, Data: f.data}
	if bytes.Equal(f.data, doneSentinel) {
		it.Done = true
		f.stats.Done = true
	} else {
		f.stats.Events++
	}
	emit(it)
	f.name, f.data, f.hasData = f.name[:0], f.data[:0], false
}

var doneSentinel = []byte("[DONE]")
