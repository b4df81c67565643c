package input

import (
	"bytes"
	"unicode/utf8"
)

// MaxSequence is the longest escape sequence, in bytes, that the decoder
// waits to see ended. A sequence still open at this length is emitted as
// [Unknown] holding its first MaxSequence bytes. Pastes are not limited.
const MaxSequence = 4096

// keepCap is the largest buffer capacity kept for reuse once a held tail
// or a paste is done; larger buffers are released.
const keepCap = 64 << 10

// pasteEnd ends a bracketed paste.
var pasteEnd = []byte("\x1b[201~")

// Decoder turns terminal input bytes into events. The zero value is ready
// to use. It is not safe for concurrent use.
type Decoder struct {
	held    []byte // incomplete tail, starting at an event boundary
	paste   []byte // paste text so far while pasting
	pasting bool   // inside CSI 200~ … CSI 201~
}

// Pending reports whether an incomplete tail (a lone ESC, a split sequence
// or rune) is held, so that the caller should call [Decoder.Flush] after
// [EscTimeout] without new bytes. An open paste is not pending; see
// [Decoder.InPaste].
func (d *Decoder) Pending() bool { return len(d.held) > 0 }

// InPaste reports whether a bracketed paste has started and not ended.
func (d *Decoder) InPaste() bool { return d.pasting }

// Feed decodes p and appends the complete events to dst, returning the
// extended slice. An incomplete tail (split sequence, split UTF-8, open
// paste) is held for the next Feed or Flush. p is not retained.
func (d *Decoder) Feed(dst []Event, p []byte) []Event {
	for {
		if d.pasting {
			var done bool
			dst, p, done = d.feedPaste(dst, p)
			if !done {
				return dst
			}
		}
		data, held := p, len(d.held) > 0
		if held {
			d.held = append(d.held, p...)
			data = d.held
		}
		var n int
		dst, n = d.decode(dst, data, false)
		rest := data[n:]
		if d.pasting {
			// rest may alias d.held; feedPaste copies what it keeps.
			d.held = d.held[:0]
			p = rest
			continue
		}
		d.hold(rest)
		return dst
	}
}

// hold keeps rest, the undecoded tail, as the held bytes. rest may lie
// inside d.held's array; append copies with memmove, so overlap is fine.
func (d *Decoder) hold(rest []byte) {
	if cap(d.held) > keepCap {
		d.held = nil
	}
	d.held = append(d.held[:0], rest...)
}

// Flush ends the held tail, appending its events to dst: a lone ESC
// becomes the Escape key, ESC ESC alt+esc, a bare introducer such as
// ESC [ an alt key (alt+[), a split rune or a sequence with content
// [Unknown]. Call it after [EscTimeout] with no new bytes while
// [Decoder.Pending]. An open paste is left open.
func (d *Decoder) Flush(dst []Event) []Event {
	if d.pasting || len(d.held) == 0 {
		return dst
	}
	data := d.held
	var n int
	dst, n = d.decode(dst, data, true)
	d.held = nil
	if cap(data) <= keepCap {
		d.held = data[:0]
	}
	if d.pasting && n < len(data) {
		rest := append([]byte(nil), data[n:]...)
		return d.Feed(dst, rest)
	}
	return dst
}

// decode appends the events of data, stopping at an incomplete event
// (unless flush) or right after a paste start. It returns the number of
// bytes consumed.
func (d *Decoder) decode(dst []Event, data []byte, flush bool) ([]Event, int) {
	i := 0
	for i < len(data) {
		if c := data[i]; c < 0x80 && c != 0x1b {
			dst = append(dst, asciiEvents[c])
			i++
			continue
		}
		ev, n := d.decodeOne(data[i:], flush)
		if n == 0 {
			break
		}
		if ev != nil {
			dst = append(dst, ev)
		}
		i += n
		if d.pasting {
			break
		}
	}
	return dst, i
}

// decodeOne decodes the event at the start of data. n == 0 means data is
// an incomplete prefix (never when flush). A nil event with n > 0 means
// the bytes decode to nothing (a modifier key alone, a stray paste end).
func (d *Decoder) decodeOne(data []byte, flush bool) (Event, int) {
	if data[0] == 0x1b {
		return d.decodeEsc(data, flush)
	}
	return decodeText(data, flush)
}

// decodeEsc decodes an event starting with ESC.
func (d *Decoder) decodeEsc(data []byte, flush bool) (Event, int) {
	if len(data) < 2 {
		if !flush {
			return nil, 0
		}
		return escKey, 1
	}
	switch data[1] {
	case '[':
		return d.decodeCSI(data, flush)
	case 'O':
		return decodeSS3(data, flush)
	case ']', 'P', '_', '^', 'X':
		return decodeString(data, flush)
	case 0x1b:
		if len(data) < 3 {
			if !flush {
				return nil, 0
			}
			return altEscKey, 2
		}
		if data[2] != '[' && data[2] != 'O' {
			return altEscKey, 2
		}
		ev, n := d.decodeEsc(data[1:], flush)
		if n == 0 {
			return nil, 0
		}
		if k, ok := ev.(Key); ok {
			return withAlt(k), n + 1
		}
		return ev, n + 1
	}
	ev, n := decodeText(data[1:], flush)
	if n == 0 {
		return nil, 0
	}
	if k, ok := ev.(Key); ok {
		return withAlt(k), n + 1
	}
	return escKey, 1
}

// withAlt adds alt to k; a key with alt types nothing.
func withAlt(k Key) Key {
	k.Mod |= ModAlt
	k.Text = ""
	return k
}

// decodeText decodes one byte or rune that is not ESC.
func decodeText(data []byte, flush bool) (Event, int) {
	if c := data[0]; c < 0x80 {
		return asciiEvents[c], 1
	}
	if !utf8.FullRune(data) {
		if !flush {
			return nil, 0
		}
		return unknown(data), len(data)
	}
	r, size := utf8.DecodeRune(data)
	if r == utf8.RuneError && size == 1 {
		return unknown(data[:1]), 1
	}
	if r < 0xA0 { // C1 control
		return unknown(data[:size]), size
	}
	return Key{Code: r, Text: string(data[:size])}, size
}

// feedPaste adds p to the open paste. When p holds the paste end, it
// emits the Paste, ends paste mode and returns the bytes after the end
// with done true. Work is linear in the paste size.
func (d *Decoder) feedPaste(dst []Event, p []byte) ([]Event, []byte, bool) {
	// The end marker may straddle the previous bytes and p.
	if len(d.paste) > 0 && len(p) > 0 {
		var w [2 * 6]byte
		sofar := d.paste
		tail := sofar[max(0, len(sofar)-(len(pasteEnd)-1)):]
		head := p[:min(len(p), len(pasteEnd)-1)]
		win := append(append(w[:0], tail...), head...)
		if i := bytes.Index(win, pasteEnd); i >= 0 {
			cut := len(sofar) - len(tail) + i
			dst = append(dst, Paste{Text: pasteText(sofar[:cut])})
			d.endPaste()
			return dst, p[i+len(pasteEnd)-len(tail):], true
		}
	}
	if i := bytes.Index(p, pasteEnd); i >= 0 {
		var text string
		if len(d.paste) == 0 {
			text = pasteText(p[:i])
		} else {
			d.paste = append(d.paste, p[:i]...)
			text = pasteText(d.paste)
		}
		dst = append(dst, Paste{Text: text})
		d.endPaste()
		return dst, p[i+len(pasteEnd):], true
	}
	d.paste = append(d.paste, p...)
	return dst, nil, false
}

// endPaste leaves paste mode, keeping a small buffer for reuse.
func (d *Decoder) endPaste() {
	d.pasting = false
	if cap(d.paste) > keepCap {
		d.paste = nil
	} else {
		d.paste = d.paste[:0]
	}
}

// pasteText converts paste bytes to a string, dropping invalid UTF-8.
func pasteText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, nil))
}

// Pre-boxed events for single bytes, so typing allocates nothing.
var (
	asciiEvents [0x80]Event
	escKey      Event = Key{Code: KeyEscape}
	altEscKey   Event = Key{Code: KeyEscape, Mod: ModAlt}
)

func init() {
	for c := range 0x80 {
		asciiEvents[c] = asciiKey(byte(c))
	}
}

// asciiKey is the key for a single byte below 0x80 outside a sequence.
func asciiKey(c byte) Key {
	switch {
	case c == 0x00:
		return Key{Code: KeySpace, Mod: ModCtrl}
	case c == 0x08 || c == 0x7f:
		return Key{Code: KeyBackspace}
	case c == 0x09:
		return Key{Code: KeyTab}
	case c == 0x0d:
		return Key{Code: KeyEnter}
	case c == 0x1b:
		return Key{Code: KeyEscape}
	case c <= 0x1a:
		return Key{Code: rune('a' + c - 1), Mod: ModCtrl}
	case c < 0x20:
		return Key{Code: rune("\\]^_"[c-0x1c]), Mod: ModCtrl}
	}
	return Key{Code: rune(c), Text: string(rune(c))}
}

// altKey is alt plus an ASCII character, for a bare sequence introducer.
func altKey(c byte) Key { return Key{Code: rune(c), Mod: ModAlt} }
