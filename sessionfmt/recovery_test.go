package sessionfmt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

// frameSpan is one frame of a known-good file.
type frameSpan struct {
	off, end int64
	typ      frame.Type
	entry    int // index among entries, -1 for other frames
}

func spans(t testing.TB, b []byte) []frameSpan {
	t.Helper()
	sc := frame.NewScanner(bytes.NewReader(b), int64(len(b)), frame.Limits{MaxFrame: DefaultMaxFrame, MaxSkips: 1}, nil)
	var out []frameSpan
	n := 0
	for {
		f, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		sp := frameSpan{off: f.Off, end: f.End(), typ: f.Type, entry: -1}
		if f.Type == frame.TypeEntry {
			sp.entry = n
			n++
		}
		out = append(out, sp)
	}
	return out
}

func loadBytes(b []byte, opts *Options) (*Session, *Report, error) {
	return LoadFrom(bytes.NewReader(b), int64(len(b)), opts)
}

// TestTruncateEveryOffset cuts a real session at every byte offset: every
// frame complete before the cut is recovered, the rest is reported as a
// truncated tail, and a cut inside the header is an explicit error.
func TestTruncateEveryOffset(t *testing.T) {
	es := representative(t, 30)
	_, full := realSession(t, 30, true)
	sp := spans(t, full)
	t.Logf("session of %d bytes, %d frames", len(full), len(sp))
	for cut := 0; cut < len(full); cut++ {
		s, rep, err := loadBytes(full[:cut], nil)
		if cut < int(sp[0].end) {
			var fe *Error
			if !errors.As(err, &fe) || fe.Off != 0 {
				t.Fatalf("cut %d inside the header: err %v, want a header *Error", cut, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		want, goodEnd := 0, int64(0)
		for _, f := range sp {
			if f.end <= int64(cut) {
				goodEnd = f.end
				if f.entry >= 0 {
					want++
				}
			}
		}
		if s.Len() != want || rep.GoodEnd != goodEnd || rep.Truncated.Len != int64(cut)-goodEnd || len(rep.Skipped) != 0 {
			t.Fatalf("cut %d: %d entries (want %d), good end %d (want %d), report %+v", cut, s.Len(), want, rep.GoodEnd, goodEnd, rep)
		}
		if rep.Truncated.Len > 0 && rep.Truncated.Off != goodEnd {
			t.Fatalf("cut %d: truncated region at %d, want %d", cut, rep.Truncated.Off, goodEnd)
		}
		for i := range want {
			if s.ID(i) != es[i].ID {
				t.Fatalf("cut %d: entry %d is %s, want %s", cut, i, s.ID(i), es[i].ID)
			}
		}
	}
}

// TestOpenCutsTornTail reopens truncated files for writing: the torn tail is
// cut and new frames follow the last complete one.
func TestOpenCutsTornTail(t *testing.T) {
	_, full := realSession(t, 30, false)
	sp := spans(t, full)
	dir := t.TempDir()
	for cut := int(sp[0].end); cut < len(full); cut += 97 {
		p := filepath.Join(dir, "torn.session")
		os.Remove(p)
		if err := os.WriteFile(p, full[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		w, err := Open(p, nil)
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		n := w.Session().Len()
		if err := w.Append(Entry{ID: testID(90000), Time: testEpoch, Kind: KindMessage, Content: mustContent(t, "after")}, Durable); err != nil {
			t.Fatal(err)
		}
		w.Close()
		s, rep, err := Load(p, nil)
		if err != nil || rep.Damaged() || s.Len() != n+1 || s.ID(n) != testID(90000) {
			t.Fatalf("cut %d: reload after append: %v %+v", cut, err, rep)
		}
	}
}

// TestFlipEveryByte flips each byte after the header of a real session. A
// flip outside a length field skips exactly that frame and reports it; a
// flip inside a length field is an explicit error or, for the last frame
// only, a reported skip or truncated tail (indistinguishable from a torn
// append).
// Nothing else is lost and nothing is invented.
func TestFlipEveryByte(t *testing.T) {
	es := representative(t, 30)
	_, full := realSession(t, 30, true)
	sp := spans(t, full)
	b := bytes.Clone(full)
	for i := range b {
		b[i] ^= 0xff
		s, rep, err := loadBytes(b, nil)
		b[i] ^= 0xff
		var hit frameSpan
		for _, f := range sp {
			if int64(i) >= f.off && int64(i) < f.end {
				hit = f
			}
		}
		inLength := int64(i) < hit.off+4
		if hit.typ == frame.TypeHeader {
			if err == nil {
				t.Fatalf("flip %d in the header loaded", i)
			}
			continue
		}
		if err != nil {
			var fe *Error
			if !inLength || !errors.As(err, &fe) || fe.Off != hit.off {
				t.Fatalf("flip %d (frame at %d, length field %v): %v", i, hit.off, inLength, err)
			}
			continue
		}
		last := hit.end == int64(len(full))
		if inLength && last && len(rep.Skipped) == 0 && rep.Truncated.Off == hit.off {
			// A longer length on the last frame is exactly a torn append.
			rep.Skipped = []Region{{Off: hit.off, Len: hit.end - hit.off}}
			rep.Truncated = Region{}
		}
		if len(rep.Skipped) != 1 || rep.Skipped[0].Off != hit.off || rep.Truncated.Len != 0 {
			t.Fatalf("flip %d (frame at %d): report %+v", i, hit.off, rep)
		}
		if !inLength && rep.Skipped[0].Len != hit.end-hit.off {
			t.Fatalf("flip %d: skipped %d bytes, want %d", i, rep.Skipped[0].Len, hit.end-hit.off)
		}
		k := 0
		for j, e := range es {
			if j == hit.entry {
				continue
			}
			if k >= s.Len() || s.ID(k) != e.ID {
				t.Fatalf("flip %d: entry %d missing or out of order", i, j)
			}
			k++
		}
		if k != s.Len() {
			t.Fatalf("flip %d: %d entries loaded, want %d", i, s.Len(), k)
		}
	}
}

func TestFramingAmbiguity(t *testing.T) {
	_, full := realSession(t, 30, false)
	sp := spans(t, full)
	mid := sp[len(sp)/2]
	next := sp[len(sp)/2+1]
	put32 := func(b []byte, off int64, v uint32) {
		b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	tests := []struct {
		name    string
		opts    *Options
		corrupt func(b []byte)
		want    string
		off     int64
	}{
		{"length runs past the end over valid frames", nil, func(b []byte) { put32(b, mid.off, uint32(len(b))) }, "framing ambiguity", mid.off},
		{"length points into the middle of a frame", nil, func(b []byte) { put32(b, mid.off, uint32(mid.end-mid.off-frame.Overhead+3)) }, "framing ambiguity", mid.off},
		{"two corrupt frames in a row", nil, func(b []byte) { b[mid.off+7] ^= 1; b[next.off+7] ^= 1 }, "framing ambiguity", mid.off},
		{"length over the bound", nil, func(b []byte) { put32(b, mid.off, 256<<20) }, "exceeds the bound", mid.off},
		{"too many corrupt frames", &Options{MaxSkips: 2}, func(b []byte) {
			for _, f := range []frameSpan{sp[2], sp[4], sp[6]} {
				b[f.off+8] ^= 1
			}
		}, "too many corrupt frames", sp[6].off},
		{"not a session", nil, func(b []byte) { copy(b, "#!/bin/sh\necho hello\n") }, "not a session", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytes.Clone(full)
			tt.corrupt(b)
			_, _, err := loadBytes(b, tt.opts)
			var fe *Error
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) || fe.Off != tt.off {
				t.Fatalf("err %v, want %q at offset %d", err, tt.want, tt.off)
			}
			if fe.Fix == "" || fe.What == "" {
				t.Fatalf("diagnostic without what or fix: %#v", fe)
			}
		})
	}
}

func TestRepair(t *testing.T) {
	es := representative(t, 30)
	p, full := realSession(t, 30, true)
	sp := spans(t, full)
	victim := sp[5]
	b := bytes.Clone(full)
	b[victim.off+9] ^= 0x40
	b = b[:len(b)-3] // and a torn tail
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "fixed.session")
	rep, err := Repair(p, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Off != victim.off || rep.Truncated.Len == 0 || rep.Unknown != 1 || rep.Joined != 1 {
		t.Fatalf("report %+v", rep)
	}
	// The repaired file is intact: the entry whose parent was lost now
	// continues from the entry before the gap.
	s, rep2, err := Verify(out, nil)
	if err != nil || rep2.Damaged() || rep2.Orphans != 0 {
		t.Fatalf("verify repaired: %v %+v", err, rep2)
	}
	if s.Len() != len(es)-1 || rep2.Unknown != 1 {
		t.Fatalf("repaired file has %d entries and %d unknown frames", s.Len(), rep2.Unknown)
	}
	for i := 1; i < s.Len(); i++ {
		if s.Parent(i) < 0 && !s.Entry(i).Parent.IsZero() {
			t.Fatalf("entry %d has no parent in the repaired file", i)
		}
	}
	// Every frame kept but the joined one is byte-identical to the
	// original, in order.
	got, _ := os.ReadFile(out)
	var want []byte
	rest := got
	for _, f := range sp {
		if f == victim || f == sp[6] || f.end > int64(len(b)) {
			continue
		}
		i := bytes.Index(rest, full[f.off:f.end])
		if i < 0 {
			t.Fatalf("the frame at offset %d is not in the repaired file, in order", f.off)
		}
		rest = rest[i+int(f.end-f.off):]
	}
	want = got
	if _, err := Repair(p, out, nil); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("repair over an existing file: %v", err)
	}
	// In place.
	if _, err := Repair(p, p, nil); err != nil {
		t.Fatal(err)
	}
	if in, _ := os.ReadFile(p); !bytes.Equal(in, want) {
		t.Fatal("in-place repair differs")
	}
}

// TestRepairPastABadLength: a flipped bit in a frame's length field makes
// the file unreadable to a loader (it does not guess), but Repair keeps
// every frame before it and every frame a checksum proves after it, and
// the repaired file verifies intact with the history joined across the
// gap.
func TestRepairPastABadLength(t *testing.T) {
	p, full := realSession(t, 30, true)
	sp := spans(t, full)
	victim := sp[8]
	b := bytes.Clone(full)
	b[victim.off+3] ^= 0x40 // the length's high byte: far past the bound
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(p, nil); err == nil || !strings.Contains(err.Error(), "frame length exceeds the bound") {
		t.Fatalf("load of the damaged file: %v", err)
	}
	out := filepath.Join(t.TempDir(), "fixed.session")
	rep, err := Repair(p, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Lost) != 1 || rep.Lost[0].Off != victim.off || rep.Lost[0].Len != victim.end-victim.off || rep.Joined != 1 {
		t.Fatalf("report %+v", rep)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil || !strings.Contains(text.String(), fmt.Sprintf("offset %d: lost %d bytes", victim.off, victim.end-victim.off)) {
		t.Fatalf("report text %q (%v)", text.String(), err)
	}
	s, rep2, err := Verify(out, nil)
	if err != nil || rep2.Damaged() {
		t.Fatalf("verify repaired: %v %+v", err, rep2)
	}
	orig, _, err := Load(mustWrite(t, full), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != orig.Len()-1 {
		t.Fatalf("repaired file has %d entries, want %d (all but the lost one)", s.Len(), orig.Len()-1)
	}
}

func mustWrite(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "copy.session")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDumpOfDamagedFileEndsWithWholeLines: a dump that stops at damage
// writes every frame before it as whole JSON lines, never part of one.
func TestDumpOfDamagedFileEndsWithWholeLines(t *testing.T) {
	p, full := realSession(t, 400, false)
	sp := spans(t, full)
	victim := sp[len(sp)-3]
	b := bytes.Clone(full)
	b[victim.off+3] ^= 0x40
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := Dump(&out, p, nil); err == nil {
		t.Fatal("dump of a file with a bad length succeeded")
	}
	lines := strings.Split(out.String(), "\n")
	if last := lines[len(lines)-1]; last != "" {
		t.Fatalf("the dump ends mid-line: %q", last[:min(len(last), 80)])
	}
	for i, l := range lines[:len(lines)-1] {
		if !json.Valid([]byte(l)) {
			t.Fatalf("line %d is not JSON", i)
		}
	}
	if got := len(lines) - 1; got != len(sp)-3 {
		t.Fatalf("%d lines, want the %d frames before the damage", got, len(sp)-3)
	}
}
