package sessionfmt

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/smith-agent/smith/sessionfmt/internal/atomicfile"
	"github.com/smith-agent/smith/sessionfmt/internal/detcbor"
	"github.com/smith-agent/smith/sessionfmt/internal/envelope"
	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

// line is one JSONL record: one frame. "frame" says which: header, entry,
// select or unknown.
//
// Entry lines carry the record fields; "cbor" is the content (base64, the
// authority) and "content" a JSON rendering of it for reading (on import it
// is used only when "cbor" is absent, and is then encoded canonically).
// "raw" (base64 of the whole frame) appears when the fields alone would not
// reproduce the stored frame byte for byte — a frame from another encoder
// version, an unknown kind — and is then what import writes.
type line struct {
	Frame   string          `json:"frame"`
	Format  string          `json:"format,omitempty"`
	Version uint64          `json:"version,omitempty"`
	ID      string          `json:"id,omitempty"`
	Parent  string          `json:"parent,omitempty"`
	TimeMS  *int64          `json:"time_ms,omitempty"`
	Kind    json.RawMessage `json:"kind,omitempty"`
	Pair    string          `json:"pair,omitempty"`
	Cause   string          `json:"cause,omitempty"`
	Key     string          `json:"key,omitempty"`
	Zstd    bool            `json:"zstd,omitempty"`
	Content json.RawMessage `json:"content,omitempty"`
	CBOR    []byte          `json:"cbor,omitempty"`
	Leaf    string          `json:"leaf,omitempty"`
	Type    *uint8          `json:"type,omitempty"`
	Flags   *uint8          `json:"flags,omitempty"`
	Payload []byte          `json:"payload,omitempty"`
	Raw     []byte          `json:"raw,omitempty"`
}

// Dump writes the session file at path as JSONL to w, one line per valid
// frame in file order (see the "sessionfmt dump" help for the fields). It
// streams: memory is bounded by the largest frame. Damage is reported as by
// [Load]; framing ambiguity is an error. For an intact file, [Import] of the
// output reproduces the file byte for byte.
func Dump(w io.Writer, path string, opts *Options) (*Report, error) {
	o := opts.norm()
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sessionfmt: open %s: %w; check the path", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("sessionfmt: stat %s: %w", path, err)
	}
	rep := &Report{Path: path}
	err = dumpFrom(w, f, st.Size(), o, rep)
	return rep, withPath(err, path)
}

func dumpFrom(w io.Writer, r io.ReaderAt, size int64, o Options, rep *Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var inflate, re []byte
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	err := walk(r, size, o, rep, func(f frame.Frame, p []byte) error {
		stored := frame.Append(re[:0], f.Type, f.Flags, p)
		re = stored
		var l line
		if !f.Type.Known() {
			t, fl := uint8(f.Type), f.Flags
			l = line{Frame: "unknown", Type: &t, Flags: &fl, Payload: bytes.Clone(p)}
			rep.Unknown++
			return enc.Encode(&l)
		}
		d, err := decodeFrame(f, p, o, &inflate)
		if err != nil {
			return err
		}
		var again []byte
		switch f.Type {
		case frame.TypeHeader:
			rep.Version = d.version
			l = line{Frame: "header", Format: envelope.Magic, Version: d.version}
			again = headerFrame
		case frame.TypeSelect:
			rep.Selects++
			l = line{Frame: "select", Leaf: ID(d.leaf).String()}
			again = appendSelectFrame(nil, d.leaf)
		case frame.TypeEntry:
			rep.Entries++
			e := &d.entry
			ms := e.Time.UnixMilli()
			l = line{Frame: "entry", ID: e.ID.String(), Parent: e.Parent.String(), TimeMS: &ms, Pair: e.Pair.String(),
				Cause: e.Cause.String(), Key: e.Key, Zstd: f.Flags&frame.FlagZstd != 0, CBOR: e.Content}
			if e.Kind.Known() {
				l.Kind, _ = json.Marshal(e.Kind.String())
			} else {
				l.Kind = json.RawMessage(strconv.Itoa(int(e.Kind)))
			}
			l.Content = contentJSON(e.Content)
			if e.Validate() == nil {
				again, _ = appendEntryFrame(nil, e, o.MaxPayload)
			}
		}
		if !bytes.Equal(again, stored) {
			l.Raw = bytes.Clone(stored)
		}
		return enc.Encode(&l)
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// contentJSON renders CBOR content as JSON for reading, or nil if it cannot.
func contentJSON(c []byte) json.RawMessage {
	var v any
	if detcbor.Dec.Unmarshal(c, &v) != nil {
		return nil
	}
	b, err := json.Marshal(jsonable(v))
	if err != nil {
		return nil
	}
	return b
}

// jsonable converts a decoded CBOR value into one encoding/json accepts.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i := range x {
			x[i] = jsonable(x[i])
		}
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprint(x)
		}
	}
	return v
}

// MaxLine bounds one JSONL line on import.
const MaxLine = 64 << 20

// Import reads JSONL (as written by [Dump], or produced by another tool) and
// writes the session file bytes to w, keeping the order and ids of the
// entries. A first line that is not a header gets the current header. Entry
// lines need id, time_ms, kind, the pairing fields of their kind, and either
// cbor or content; parents must appear before their children and ids must be
// unique. Errors name the line. Use [ImportFile] to publish a file.
func Import(w io.Writer, r io.Reader, opts *Options) error {
	o := opts.norm()
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	ids := make(map[ID]struct{})
	var out []byte
	for n := 1; ; n++ {
		b, err := readLine(br)
		if err == io.EOF && len(b) == 0 {
			if n == 1 {
				if _, err := bw.Write(headerFrame); err != nil {
					return err
				}
			}
			break
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("sessionfmt: import: line %d: %w", n, err)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			return fmt.Errorf("sessionfmt: import: line %d is empty; JSONL has one JSON object per line", n)
		}
		var l line
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return fmt.Errorf("sessionfmt: import: line %d: %w; each line is one object like {\"frame\":\"entry\",\"id\":\"01J…\",\"time_ms\":1700000000000,\"kind\":\"message\",\"content\":{\"role\":\"user\"}}", n, err)
		}
		if n == 1 && l.Frame != "header" {
			out = append(out[:0], headerFrame...)
			if _, err := bw.Write(out); err != nil {
				return err
			}
		}
		if out, err = importLine(out[:0], &l, n, ids, o); err != nil {
			return fmt.Errorf("sessionfmt: import: line %d: %s", n, strings.TrimPrefix(err.Error(), "sessionfmt: "))
		}
		if _, err := bw.Write(out); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func readLine(br *bufio.Reader) ([]byte, error) {
	var acc []byte
	for {
		b, err := br.ReadSlice('\n')
		if len(acc)+len(b) > MaxLine {
			return nil, fmt.Errorf("line longer than %d bytes", MaxLine)
		}
		if err == bufio.ErrBufferFull {
			acc = append(acc, b...)
			continue
		}
		if acc != nil {
			b = append(acc, b...)
		}
		return bytes.TrimSuffix(b, []byte("\n")), err
	}
}

func importLine(out []byte, l *line, n int, ids map[ID]struct{}, o Options) ([]byte, error) {
	if l.Raw != nil {
		t, _, _, ok := frame.Split(l.Raw)
		if !ok {
			return nil, errors.New("raw is not one complete frame with a valid checksum; remove raw to import from the fields")
		}
		if want := frameName(t); want != l.Frame {
			return nil, fmt.Errorf("raw holds a %s frame but the line says %q", want, l.Frame)
		}
		if l.Frame == "header" && n != 1 {
			return nil, errors.New("a header frame belongs only on the first line")
		}
		if l.Frame == "entry" {
			id, err := ParseID(l.ID)
			if err != nil {
				return nil, err
			}
			ids[id] = struct{}{}
		}
		return append(out, l.Raw...), nil
	}
	switch l.Frame {
	case "header":
		if n != 1 {
			return nil, errors.New("a header frame belongs only on the first line")
		}
		if l.Format != envelope.Magic || l.Version != envelope.Version {
			return nil, fmt.Errorf("header says format %q version %d; this version imports %q version %d", l.Format, l.Version, envelope.Magic, envelope.Version)
		}
		return append(out, headerFrame...), nil
	case "select":
		leaf, err := ParseID(l.Leaf)
		if err != nil {
			return nil, err
		}
		if _, ok := ids[leaf]; !ok {
			return nil, fmt.Errorf("select names %s, which no earlier line defines", leaf)
		}
		return appendSelectFrame(out, leaf), nil
	case "unknown":
		if l.Type == nil || l.Flags == nil {
			return nil, errors.New("unknown frame needs type and flags")
		}
		if frame.Type(*l.Type).Known() {
			return nil, fmt.Errorf("type %d is a known frame type; write it as header, entry or select", *l.Type)
		}
		if len(l.Payload) > o.MaxFrame {
			return nil, fmt.Errorf("payload of %d bytes is over the frame bound of %d bytes", len(l.Payload), o.MaxFrame)
		}
		return frame.Append(out, frame.Type(*l.Type), *l.Flags, l.Payload), nil
	case "entry":
		e, err := l.entry()
		if err != nil {
			return nil, err
		}
		if _, dup := ids[e.ID]; dup {
			return nil, fmt.Errorf("entry id %s was already defined; ids must be unique", e.ID)
		}
		if _, ok := ids[e.Parent]; !ok && !e.Parent.IsZero() {
			return nil, fmt.Errorf("entry %s: parent %s is not defined on an earlier line; parents come before their children", e.ID, e.Parent)
		}
		if err := e.Validate(); err != nil {
			return nil, err
		}
		ids[e.ID] = struct{}{}
		return appendEntryFrame(out, e, o.MaxPayload)
	}
	return nil, fmt.Errorf("frame %q is not one of header, entry, select, unknown", l.Frame)
}

func frameName(t frame.Type) string {
	switch t {
	case frame.TypeHeader:
		return "header"
	case frame.TypeEntry:
		return "entry"
	case frame.TypeSelect:
		return "select"
	}
	return "unknown"
}

func optID(s, field string) (ID, error) {
	if s == "" {
		return ID{}, nil
	}
	id, err := ParseID(s)
	if err != nil {
		return id, fmt.Errorf("field %s: %w", field, err)
	}
	return id, nil
}

func (l *line) entry() (*Entry, error) {
	e := &Entry{Key: l.Key}
	var err error
	if e.ID, err = ParseID(l.ID); err != nil {
		return nil, fmt.Errorf("field id: %w", err)
	}
	if e.Parent, err = optID(l.Parent, "parent"); err != nil {
		return nil, err
	}
	if e.Pair, err = optID(l.Pair, "pair"); err != nil {
		return nil, err
	}
	if e.Cause, err = optID(l.Cause, "cause"); err != nil {
		return nil, err
	}
	if l.TimeMS == nil {
		return nil, fmt.Errorf("entry %s has no time_ms (Unix milliseconds)", e.ID)
	}
	e.Time = time.UnixMilli(*l.TimeMS)
	var name string
	if err := json.Unmarshal(l.Kind, &name); err != nil {
		return nil, fmt.Errorf("entry %s: kind must be a name such as \"message\"", e.ID)
	}
	if e.Kind, err = ParseKind(name); err != nil {
		return nil, err
	}
	switch {
	case l.CBOR != nil:
		e.Content = l.CBOR
	case l.Content != nil:
		if e.Content, err = jsonToCBOR(l.Content); err != nil {
			return nil, fmt.Errorf("entry %s: content: %w", e.ID, err)
		}
	default:
		return nil, fmt.Errorf("entry %s has neither cbor nor content", e.ID)
	}
	return e, nil
}

// jsonToCBOR encodes a JSON value canonically: integers as CBOR integers,
// other numbers as floats, objects as maps with text keys.
func jsonToCBOR(j json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return EncodeContent(numbers(v))
}

func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(string(x), 10, 64); err == nil {
			return u
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// ImportFile imports JSONL from r (see [Import]) and publishes the result
// atomically at path, which must not exist.
func ImportFile(path string, r io.Reader, opts *Options) error {
	o := opts.norm()
	lk, err := lockFor(path, o.WaitLock)
	if err != nil {
		return err
	}
	defer lk.Unlock()
	var ierr error
	err = atomicfile.Write(path, o.Perm, false, func(w *bufio.Writer) error {
		ierr = Import(w, r, &o)
		return ierr
	})
	if ierr != nil {
		return ierr
	}
	if err != nil {
		return publishError(path, err)
	}
	return nil
}
