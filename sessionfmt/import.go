package sessionfmt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/smith-agent/smith/sessionfmt/internal/atomicfile"
	"github.com/smith-agent/smith/sessionfmt/internal/envelope"
	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

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
	var enc entryEncoder
	for n := 1; ; n++ {
		b, err := readLine(br)
		if err == io.EOF && len(b) == 0 {
			if n == 1 {
				if _, err := bw.Write(headerFrame()); err != nil {
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
			out = append(out[:0], headerFrame()...)
			if _, err := bw.Write(out); err != nil {
				return err
			}
		}
		if out, err = importLine(&enc, out[:0], &l, n, ids, o); err != nil {
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

func importLine(enc *entryEncoder, out []byte, l *line, n int, ids map[ID]struct{}, o Options) ([]byte, error) {
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
		return append(out, headerFrame()...), nil
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
		return enc.appendEntryFrame(out, e, o.MaxPayload)
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
	defer unlock(lk)
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
