package sessionfmt

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// loadSeeds are session files for FuzzLoad: real, truncated, corrupted,
// foreign and hostile.
func loadSeeds(t testing.TB) map[string][]byte {
	_, real := realSession(t, 12, true)
	sp := spans(t, real)
	flipped := bytes.Clone(real)
	flipped[sp[3].off+8] ^= 0x10
	badLen := bytes.Clone(real)
	badLen[sp[4].off] ^= 0x01
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	bomb := compressedSession(4<<20, enc.EncodeAll(make([]byte, 4<<20), nil)) // small frame, over the fuzz bound
	return map[string][]byte{
		"real":        real,
		"truncated":   real[:len(real)-7],
		"flipped":     flipped,
		"bad-length":  badLen,
		"header-only": headerFrame(),
		"foreign":     append(bytes.Clone(headerFrame()), foreignFrames(t, ID{})...),
		"bomb":        bomb,
		"empty":       {},
	}
}

func importSeeds(t testing.TB) map[string][]byte {
	p, _ := realSession(t, 12, true)
	return map[string][]byte{
		"dump":     dumpBytes(t, p),
		"external": []byte(`{"frame":"entry","id":"01KBA6AK810009WDVSQ5ZMMZ0P","time_ms":1,"kind":"message","content":{"a":[1,2.5,"x",null,true]}}` + "\n"),
		"unknown":  []byte(`{"frame":"header","format":"smith.session","version":1}` + "\n" + `{"frame":"unknown","type":200,"flags":3,"payload":"AQID"}` + "\n"),
	}
}

// TestWriteFuzzSeeds writes the committed seed corpora with -update.
func TestWriteFuzzSeeds(t *testing.T) {
	for name, seeds := range map[string]map[string][]byte{"FuzzLoad": loadSeeds(t), "FuzzImport": importSeeds(t)} {
		dir := filepath.Join("testdata", "fuzz", name)
		for seed, b := range seeds {
			path := filepath.Join(dir, seed)
			want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
			if *update {
				os.MkdirAll(dir, 0o755)
				if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("seed %s missing (run go test -run TestWriteFuzzSeeds -update): %v", path, err)
			}
		}
	}
}

// FuzzLoad feeds arbitrary bytes to the reader (with 1 MiB frame bounds, so
// the "bomb" seed, 4 MiB of zeros in a few hundred bytes, is over them). It must never panic or
// exceed its bounds, a loaded session must be consistent, and an intact one
// must round-trip exactly through JSONL.
func FuzzLoad(f *testing.F) {
	for _, b := range loadSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, rep, err := loadBytes(b, &Options{MaxPayload: 1 << 20, MaxFrame: 1 << 20, MaxSession: 4 << 20})
		if err != nil {
			return
		}
		for i := range s.Len() {
			if p := s.Parent(i); p >= i {
				t.Fatalf("entry %d has parent index %d", i, p)
			}
			_ = s.Entry(i)
		}
		if rep.Damaged() || rep.GoodEnd != int64(len(b)) {
			return
		}
		var d bytes.Buffer
		drep := &Report{}
		if err := dumpFrom(&d, bytes.NewReader(b), int64(len(b)), (&Options{MaxPayload: 1 << 20, MaxFrame: 1 << 20, MaxSession: 4 << 20}).norm(), drep); err != nil {
			t.Fatalf("intact session does not dump: %v", err)
		}
		var again bytes.Buffer
		if err := Import(&again, &d, nil); err != nil {
			t.Fatalf("dump does not import: %v\n%s", err, d.String())
		}
		if !bytes.Equal(again.Bytes(), b) {
			t.Fatalf("import(dump(f)) != f\nf:     %x\nagain: %x", b, again.Bytes())
		}
	})
}

// FuzzImport feeds arbitrary JSONL to Import. Whatever it accepts must load
// and survive a further dump and import unchanged.
func FuzzImport(f *testing.F) {
	for _, b := range importSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		if Import(&out, bytes.NewReader(in), nil) != nil {
			return
		}
		b := out.Bytes()
		_, rep, err := loadBytes(b, nil)
		if err != nil {
			t.Fatalf("imported file does not load: %v", err)
		}
		if rep.Damaged() {
			t.Fatalf("imported file is damaged: %+v", rep)
		}
		var d, again bytes.Buffer
		if err := dumpFrom(&d, bytes.NewReader(b), int64(len(b)), (*Options)(nil).norm(), &Report{}); err != nil {
			t.Fatal(err)
		}
		if err := Import(&again, &d, nil); err != nil || !bytes.Equal(again.Bytes(), b) {
			t.Fatalf("round trip of an imported file: %v", err)
		}
	})
}
