package jsonscan_test

import (
	"strconv"
	"unicode/utf8"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
)

// walker runs a walk script over a Decoder and records a trace. It is
// testdata/driver.rs's Walker in Go, operation for operation and entry for
// entry, so equal traces mean the two decoders answered every call alike.
//
// A script is a byte string; each byte (modulo 13) is one operation on the
// next value: 0 peek (then the next operation), 1 skip, 2 raw, 3 null,
// 4 str (and every String method), 5 bool, 6 int, 7 object (the next
// operation for each member), 8 array (the next operation for each
// element), 9 finish, 10 two operations, 11 leave the value unread,
// 12 walk the whole value by its kind. An ended script leaves values
// unread. A trace entry is a tag, a space, the value's length in decimal,
// a colon, the value and a newline.
type walker struct {
	script []byte
	at     int
	trace  []byte
}

func (w *walker) emit(tag string, value []byte) {
	w.trace = append(w.trace, tag...)
	w.trace = append(w.trace, ' ')
	w.trace = strconv.AppendInt(w.trace, int64(len(value)), 10)
	w.trace = append(w.trace, ':')
	w.trace = append(w.trace, value...)
	w.trace = append(w.trace, '\n')
}

func (w *walker) emitOpt(tag string, value []byte) {
	if value == nil {
		w.emit(tag, []byte("<nil>"))
		return
	}
	w.emit(tag, value)
}

func (w *walker) emitBool(tag string, v bool) { w.emit(tag, strconv.AppendBool(nil, v)) }

func (w *walker) emitErr(tag string, err error) {
	if err == nil {
		w.emit(tag, []byte("<nil>"))
		return
	}
	w.emit(tag, []byte(err.Error()))
}

func (w *walker) str(d *jsonscan.Decoder) {
	s := d.Str()
	w.emitOpt("str", s)
	w.emitBool("nil", s == nil)
	w.emit("string", []byte(s.String()))
	w.emitOpt("bytes", s.Bytes())
	w.emitBool("empty", s.Empty())
	w.emitBool("equal-empty", s.Equal(""))
	w.emitBool("equal-enc", s.Equal("enc"))
	if s != nil {
		if content := s[1 : len(s)-1]; utf8.Valid(content) {
			w.emitBool("equal-content", s.Equal(string(content)))
		}
	}
}

// value runs the script's next operation on the next value.
func (w *walker) value(d *jsonscan.Decoder) {
	if w.at >= len(w.script) {
		return
	}
	op := w.script[w.at] % 13
	w.at++
	switch op {
	case 0:
		w.emit("peek", []byte(d.Peek().String()))
		w.value(d)
	case 1:
		d.Skip()
		w.emit("skip", nil)
	case 2:
		w.emitOpt("raw", d.Raw())
	case 3:
		w.emitBool("null", d.Null())
	case 4:
		w.str(d)
	case 5:
		w.emitBool("bool", d.Bool())
	case 6:
		if v, ok := d.Int(); ok {
			w.emit("int", strconv.AppendInt(nil, v, 10))
		} else {
			w.emit("int", []byte("<none>"))
		}
	case 7:
		w.emit("object", nil)
		d.Object(func(key []byte) {
			w.emit("key", key)
			w.value(d)
		})
		w.emit("object-end", nil)
	case 8:
		w.emit("array", nil)
		d.Array(func() {
			w.emit("elem", nil)
			w.value(d)
		})
		w.emit("array-end", nil)
	case 9:
		w.emitErr("finish", d.Finish())
	case 10:
		w.value(d)
		w.value(d)
	case 11:
		w.emit("leave", nil)
	default:
		w.walk(d)
	}
}

// walk reads the next value whole, by its kind, as a codec would.
func (w *walker) walk(d *jsonscan.Decoder) {
	switch d.Peek() {
	case jsonscan.Object:
		w.emit("walk-object", nil)
		d.Object(func(key []byte) {
			w.emit("key", key)
			w.walk(d)
		})
	case jsonscan.Array:
		w.emit("walk-array", nil)
		d.Array(func() { w.walk(d) })
	case jsonscan.Str:
		w.str(d)
	case jsonscan.Number:
		w.emitOpt("number", d.Raw())
	case jsonscan.Bool:
		w.emitBool("bool", d.Bool())
	case jsonscan.Null:
		w.emitBool("null", d.Null())
	default:
		d.Skip()
		w.emit("invalid", nil)
	}
}

// goWalk runs script over text with the Go Decoder: operations until the
// script ends, then Finish.
func goWalk(text, script []byte) []byte {
	var d jsonscan.Decoder
	d.Reset(text)
	w := &walker{script: script}
	for w.at < len(script) {
		w.value(&d)
	}
	w.emitErr("finish", d.Finish())
	return w.trace
}
