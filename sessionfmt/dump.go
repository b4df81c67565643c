package sessionfmt

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

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
		return nil, fmt.Errorf("sessionfmt: %w; check the path", err)
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
	var ee entryEncoder
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
			again = headerFrame()
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
				again, _ = ee.appendEntryFrame(nil, e, o.MaxPayload)
			}
		}
		if !bytes.Equal(again, stored) {
			l.Raw = bytes.Clone(stored)
		}
		return enc.Encode(&l)
	})
	// Every line written is whole (the buffer may have sent the first part
	// of the last one already), so the lines before a failure are written
	// out with the rest of that line: the output never ends mid-line.
	ferr := bw.Flush()
	if err != nil {
		return err
	}
	return ferr
}

// contentJSON renders CBOR content as JSON for reading, or nil if it cannot.
func contentJSON(c []byte) json.RawMessage {
	var v any
	if detcbor.Dec().Unmarshal(c, &v) != nil {
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
