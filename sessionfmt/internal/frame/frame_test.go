package frame

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

func TestSplit(t *testing.T) {
	good := Append(nil, TypeEntry, FlagZstd, []byte("payload"))
	tests := []struct {
		name string
		b    []byte
		ok   bool
	}{
		{"good", good, true},
		{"empty payload", Append(nil, 0x99, 0, nil), true},
		{"short", good[:9], false},
		{"trailing byte", append(bytes.Clone(good), 0), false},
		{"bad checksum", append(bytes.Clone(good[:len(good)-1]), good[len(good)-1]^1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, _, ok := Split(tt.b)
			if ok != tt.ok {
				t.Fatalf("ok %v, want %v", ok, tt.ok)
			}
		})
	}
	ty, fl, p, _ := Split(good)
	if ty != TypeEntry || fl != FlagZstd || string(p) != "payload" {
		t.Fatal("parts differ")
	}
}

// TestScannerLargeFrames checks frames smaller than, equal to and much larger
// than the read window: checksums are computed across window refills and
// ReadPayload reassembles the payload.
func TestScannerLargeFrames(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, WindowSize - Overhead, WindowSize, WindowSize + 1, 3*WindowSize + 17}
	file := Append(nil, TypeHeader, 0, []byte("h"))
	var payloads [][]byte
	for _, n := range sizes {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(r.Uint32())
		}
		payloads = append(payloads, p)
		file = Append(file, TypeEntry, 0, p)
	}
	sc := NewScanner(bytes.NewReader(file), int64(len(file)), Limits{MaxFrame: 1 << 20, MaxSkips: 1}, nil)
	if _, err := sc.Next(); err != nil {
		t.Fatal(err)
	}
	for i, want := range payloads {
		f, err := sc.Next()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		got, err := sc.ReadPayload(f, make([]byte, 0, f.Len))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("frame %d of %d bytes: payload differs (%v)", i, len(want), err)
		}
	}
	if _, err := sc.Next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}

	// A flipped byte deep inside the largest frame is found and skipped.
	last := len(file) - TrailerSize - 5
	bad := bytes.Clone(file)
	bad[last-2*WindowSize] ^= 1
	bad = Append(bad, TypeSelect, 0, []byte("after"))
	sc = NewScanner(bytes.NewReader(bad), int64(len(bad)), Limits{MaxFrame: 1 << 20, MaxSkips: 1}, nil)
	n := 0
	for {
		_, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != len(sizes)+1 || len(sc.Skipped()) != 1 { // header, five entries, select
		t.Fatalf("%d frames, skipped %v", n, sc.Skipped())
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Path: "a.session", Off: 28, Size: 268435456, Bound: 16777216, What: "too big", Why: "memory", Fix: "raise it", Err: io.ErrUnexpectedEOF}
	want := "sessionfmt: a.session: offset 28: too big (size 268435456 bytes, bound 16777216 bytes): unexpected EOF; memory; raise it"
	if e.Error() != want {
		t.Fatalf("got  %s\nwant %s", e.Error(), want)
	}
	if !errors.Is(e, io.ErrUnexpectedEOF) {
		t.Fatal("Unwrap")
	}
}
