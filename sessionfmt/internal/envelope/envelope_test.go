package envelope

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/sessionfmt/internal/detcbor"
)

var update = flag.Bool("update", false, "rewrite the fuzz seed corpus")

func id(n byte) [16]byte {
	var b [16]byte
	for i := range b {
		b[i] = n + byte(i)
	}
	return b
}

func samples() map[string]Entry {
	return map[string]Entry{
		"minimal":  {ID: id(1), Kind: 1, Content: []byte{0x01}},
		"all":      {ID: id(1), Parent: id(2), Pair: id(3), Cause: id(4), Time: 1_764_500_000_000, Kind: 7, Key: "toolu_01ABC", Content: []byte{0x62, 'h', 'i'}},
		"negative": {ID: id(9), Time: -5, Kind: 255, Content: []byte{0xf6}},
		"extremes": {ID: id(9), Time: -1 << 63, Kind: 0, Key: strings.Repeat("é", 300), Content: bytes.Repeat([]byte{0x40}, 1)},
		"maxtime":  {ID: id(9), Time: 1<<63 - 1, Kind: 3, Content: append([]byte{0x59, 0x01, 0x00}, make([]byte, 256)...)},
	}
}

func toEntry(v *View) Entry {
	return Entry{ID: v.ID, Parent: v.Parent, Pair: v.Pair, Cause: v.Cause, Time: v.Time, Kind: v.Kind, Key: string(v.Key), Content: v.Content}
}

func TestRoundTrip(t *testing.T) {
	for name, e := range samples() {
		t.Run(name, func(t *testing.T) {
			p, err := Encode(&e)
			if err != nil {
				t.Fatal(err)
			}
			var v View
			if err := ParseEntry(p, &v); err != nil {
				t.Fatal(err)
			}
			got := toEntry(&v)
			if got.ID != e.ID || got.Parent != e.Parent || got.Pair != e.Pair || got.Cause != e.Cause || got.Time != e.Time || got.Kind != e.Kind || got.Key != e.Key || !bytes.Equal(got.Content, e.Content) {
				t.Fatalf("got %+v want %+v", got, e)
			}
			if n := testing.AllocsPerRun(10, func() { _ = ParseEntry(p, &v) }); n != 0 {
				t.Fatalf("ParseEntry allocates %v times", n)
			}
		})
	}
}

func TestParseRejectsNonCanonical(t *testing.T) {
	good, _ := Encode(&Entry{ID: id(1), Kind: 1, Time: 10, Content: []byte{0x01}})
	// good: a4 01 50 <16> 03 0a 04 01 08 41 01
	tests := []struct {
		name string
		p    []byte
		want string
	}{
		{"trailing byte", append(bytes.Clone(good), 0), "trailing"},
		{"truncated", good[:len(good)-1], "past the payload"},
		{"not a map", []byte{0x80}, "want a map"},
		{"long-form time", bytes.Replace(good, []byte{0x03, 0x0a}, []byte{0x03, 0x18, 0x0a}, 1), "shortest form"},
		{"keys out of order", swapKeys(good), "out of order"},
		{"missing content", []byte{0xa3, 0x01, 0x50, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0x03, 0x00, 0x04, 0x01}, "want a map of 4 to 8"},
		{"zero id", append(append([]byte{0xa4, 0x01, 0x50}, make([]byte, 16)...), 0x03, 0x00, 0x04, 0x01, 0x08, 0x41, 0x01), "zero id"},
		{"short id", []byte{0xa4, 0x01, 0x42, 1, 2, 0x03, 0x00, 0x04, 0x01, 0x08, 0x41, 0x01}, "want 16"},
		{"kind too big", bytes.Replace(good, []byte{0x04, 0x01}, []byte{0x04, 0x19, 0x01, 0x00}, 1), "not a uint8"},
		{"empty content", bytes.Replace(good, []byte{0x08, 0x41, 0x01}, []byte{0x08, 0x40}, 1), "content is empty"},
		{"indefinite length", []byte{0xbf}, "additional info 31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v View
			err := ParseEntry(tt.p, &v)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

// swapKeys moves the time pair before the id pair.
func swapKeys(good []byte) []byte {
	out := []byte{good[0]}
	out = append(out, good[19:21]...) // 03 0a
	out = append(out, good[1:19]...)  // 01 50 <16>
	return append(out, good[21:]...)
}

func TestHeaderAndSelect(t *testing.T) {
	v, err := ParseHeader(EncodeHeader())
	if err != nil || v != Version {
		t.Fatalf("%d %v", v, err)
	}
	bad, _ := detcbor.Enc().Marshal(map[int]any{1: "other.format", 2: 1})
	if _, err := ParseHeader(bad); err == nil || !strings.Contains(err.Error(), "magic") {
		t.Fatalf("foreign magic: %v", err)
	}
	p, _ := EncodeSelect(id(5))
	if leaf, err := ParseSelect(p); err != nil || leaf != id(5) {
		t.Fatalf("%v %v", leaf, err)
	}
}

func TestWriteFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzParseEntry")
	for name, e := range samples() {
		p, _ := Encode(&e)
		path := filepath.Join(dir, name)
		if *update {
			os.MkdirAll(dir, 0o755)
			os.WriteFile(path, []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", p)), 0o644)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("seed missing (run with -update): %v", err)
		}
	}
}

// FuzzParseEntry checks that the strict parser accepts exactly what the
// encoder produces: whatever it accepts re-encodes to the same bytes, and
// the reflection decoder with the format's limits agrees on every field.
func FuzzParseEntry(f *testing.F) {
	for _, e := range samples() {
		p, _ := Encode(&e)
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		var v View
		if ParseEntry(p, &v) != nil {
			return
		}
		e := toEntry(&v)
		again, err := Encode(&e)
		if err != nil || !bytes.Equal(again, p) {
			t.Fatalf("accepted non-canonical payload %x (re-encodes to %x, %v)", p, again, err)
		}
		var w wire
		if err := detcbor.Dec().Unmarshal(p, &w); err != nil {
			t.Fatalf("strict parser accepted what the limited decoder rejects: %v", err)
		}
		if !bytes.Equal(w.ID, v.ID[:]) || w.Time != v.Time || w.Kind != v.Kind || w.Key != string(v.Key) || !bytes.Equal(w.Content, v.Content) {
			t.Fatal("decoders disagree")
		}
	})
}
