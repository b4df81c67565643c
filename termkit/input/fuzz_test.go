package input

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecoder checks the split property: feeding the same bytes in
// arbitrary chunks yields the same events as one Feed, and the same held
// tail (compared through a final Flush). It also checks that Unknown never
// carries a raw ESC.
func FuzzDecoder(f *testing.F) {
	for i, tc := range decodeCases {
		f.Add([]byte(tc.in), uint64(i))
	}
	f.Add([]byte("\x1b[200~abc\x1b[201"), uint64(7))
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		var whole Decoder
		want := whole.Feed(nil, in)
		wantPending := whole.Pending()
		want = whole.Flush(want)

		rng := rand.New(rand.NewPCG(seed, seed>>32))
		var split Decoder
		var got []Event
		for rest := in; len(rest) > 0; {
			n := 1 + rng.IntN(min(len(rest), 16))
			got = split.Feed(got, rest[:n])
			rest = rest[n:]
		}
		if split.Pending() != wantPending {
			t.Fatalf("Pending %v after chunks, %v after one Feed", split.Pending(), wantPending)
		}
		got = split.Flush(got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("input %q\nchunked %s\n  whole %s", in, show(got), show(want))
		}
		for _, ev := range got {
			if u, ok := ev.(Unknown); ok && strings.ContainsRune(u.Seq, 0x1b) {
				t.Fatalf("Unknown %q holds a raw ESC", u.Seq)
			}
		}
	})
}

// FuzzParseKey checks that ParseKey(k.String()) gives back every pressed
// key the decoder produces, and that any key ParseKey accepts prints back
// to the same key.
func FuzzParseKey(f *testing.F) {
	for _, tc := range decodeCases {
		f.Add([]byte(tc.in))
	}
	for _, s := range []string{"ctrl+c", "ctrl++", "U+E000", "shift+alt+f5", "Ctrl+Space", "+"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var d Decoder
		evs := d.Flush(d.Feed(nil, in))
		for _, ev := range evs {
			k, ok := ev.(Key)
			if !ok || k.Event != Press {
				continue
			}
			s := k.String()
			p, err := ParseKey(s)
			if err != nil {
				t.Fatalf("ParseKey(%q) for %#v: %v", s, k, err)
			}
			if p.Code != k.Code || p.Mod != k.Mod || p.Event != k.Event {
				t.Fatalf("ParseKey(%q) = %#v, want %#v", s, p, k)
			}
			if !k.Matches(s) {
				t.Fatalf("%#v does not match its own String %q", k, s)
			}
		}
		if p, err := ParseKey(string(in)); err == nil {
			q, err := ParseKey(p.String())
			if err != nil || q != p {
				t.Fatalf("ParseKey(%q) = %#v, but its String %q parses to %#v, %v", in, p, p.String(), q, err)
			}
		}
	})
}
