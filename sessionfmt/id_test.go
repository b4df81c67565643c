package sessionfmt

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	iulid "github.com/smith-agent/smith/sessionfmt/internal/ulid"
)

func mustHex(t testing.TB, s string) ID {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 16 {
		t.Fatalf("bad test hex %q", s)
	}
	return ID(b)
}

func TestParseID(t *testing.T) {
	const rule = "is not a ULID (26 Crockford base32 characters, e.g. 01JH2Z3Q4R5S6T7V8W9X0Y1Z2A): ulid: "
	for _, tc := range []struct {
		name    string
		in      string
		want    string // hex of the ID
		reason  iulid.Reason
		wantErr string // besides the value and the rule
	}{
		{name: "valid", in: "01ARZ3NDEKTSV4RRFFQ69G5FAV", want: "01563e3ab5d3d6764c61efb99302bd5b"},
		{name: "lowercase", in: "01arz3ndektsv4rrffq69g5fav", want: "01563e3ab5d3d6764c61efb99302bd5b"},
		{name: "mixed case", in: "01aRz3NdEkTsV4rRfFq69G5fAv", want: "01563e3ab5d3d6764c61efb99302bd5b"},
		{name: "the example in the error", in: "01JH2Z3Q4R5S6T7V8W9X0Y1Z2A", want: "019445f1dc982e4da3ed1c4f41e0fc4a"},
		{name: "largest", in: "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", want: "ffffffffffffffffffffffffffffffff"},
		{name: "zero", in: "00000000000000000000000000", want: "00000000000000000000000000000000"},
		{name: "lowest bit", in: "00000000000000000000000001", want: "00000000000000000000000000000001"},
		{name: "overflow", in: "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", reason: iulid.Overflow, wantErr: `first character "8" is over "7"`},
		{name: "overflow lowercase letter", in: "a0000000000000000000000000", reason: iulid.Overflow, wantErr: `first character "a" is over "7"`},
		{name: "bad character beats overflow", in: "8000000000000000000000000U", reason: iulid.BadCharacter, wantErr: `byte "U" at offset 25`},
		{name: "empty", in: "", reason: iulid.BadLength, wantErr: "length is 0 bytes, want 26"},
		{name: "too short", in: "01ARZ3NDEKTSV4RRFFQ69G5FA", reason: iulid.BadLength, wantErr: "length is 25 bytes, want 26"},
		{name: "too long", in: "01ARZ3NDEKTSV4RRFFQ69G5FAV0", reason: iulid.BadLength, wantErr: "length is 27 bytes, want 26"},
		{name: "26 runes but 27 bytes", in: "01ARZ3NDEKTSV4RRFFQ69G5FA\u00e9", reason: iulid.BadLength, wantErr: "length is 27 bytes"},
		{name: "I is not aliased to 1", in: "01ARZ3NDEKTSV4RRFFQ69G5FAI", reason: iulid.BadCharacter, wantErr: `byte "I" at offset 25`},
		{name: "L is not aliased to 1", in: "0LARZ3NDEKTSV4RRFFQ69G5FAV", reason: iulid.BadCharacter, wantErr: `byte "L" at offset 1`},
		{name: "o is not aliased to 0", in: "01ARZ3NDEKTSo4RRFFQ69G5FAV", reason: iulid.BadCharacter, wantErr: `byte "o" at offset 12`},
		{name: "u", in: "01ARZ3NDEKTSV4RRFFQ69G5FAu", reason: iulid.BadCharacter, wantErr: `byte "u" at offset 25`},
		{name: "hyphen", in: "01ARZ3NDEK-SV4RRFFQ69G5FAV", reason: iulid.BadCharacter, wantErr: `byte "-" at offset 10`},
		{name: "first bad byte is named", in: "01ARZ3NDEK SV4RRFFQ69G5FA!", reason: iulid.BadCharacter, wantErr: `byte " " at offset 10`},
		{name: "high byte", in: "01ARZ3NDEKTSV4RRFFQ69G5FA\xff", reason: iulid.BadCharacter, wantErr: `byte "\xff" at offset 25`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := ParseID(tc.in)
			if tc.reason == 0 {
				if want := mustHex(t, tc.want); err != nil || id != want {
					t.Fatalf("ParseID(%q) = %x, %v; want %x", tc.in, id[:], err, want[:])
				}
				return
			}
			var e *iulid.Error
			if err == nil || !errors.As(err, &e) || e.Reason != tc.reason || !id.IsZero() {
				t.Fatalf("ParseID(%q) = %x, %v; want reason %d", tc.in, id[:], err, tc.reason)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "sessionfmt: id ") || !strings.Contains(msg, rule) || !strings.Contains(msg, tc.wantErr) {
				t.Fatalf("error %q: want the value, %q and %q", msg, rule, tc.wantErr)
			}
			if !strings.Contains(msg, fmt.Sprintf("id %q is", tc.in)) {
				t.Fatalf("error %q does not name the value %q", msg, tc.in)
			}
		})
	}
}

func TestIDString(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   string // hex
		want string
	}{
		{name: "zero means none", id: "00000000000000000000000000000000", want: ""},
		{name: "lowest bit", id: "00000000000000000000000000000001", want: "00000000000000000000000001"},
		{name: "bit 64 straddles a character", id: "00000000000000010000000000000000", want: "0000000000000G000000000000"},
		{name: "highest bit", id: "80000000000000000000000000000000", want: "40000000000000000000000000"},
		{name: "largest", id: "ffffffffffffffffffffffffffffffff", want: "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"},
		{name: "uppercase", id: "01563e3ab5d3d6764c61efb99302bd5b", want: "01ARZ3NDEKTSV4RRFFQ69G5FAV"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustHex(t, tc.id).String(); got != tc.want {
				t.Fatalf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestIDRoundTrip: over random IDs, parsing the string form (in either
// case) gives the ID back, and string order is byte order.
func TestIDRoundTrip(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'r', 't'}))
	prev := ID{}
	for range 20_000 {
		var id ID
		for i := range id {
			id[i] = byte(r.Uint32())
		}
		s := id.String()
		for _, in := range []string{s, strings.ToLower(s)} {
			if got, err := ParseID(in); err != nil || got != id {
				t.Fatalf("ParseID(%q) = %x, %v; want %x", in, got[:], err, id[:])
			}
		}
		if cmpB, cmpS := bytes.Compare(prev[:], id[:]), strings.Compare(prev.String(), s); cmpB != cmpS && !prev.IsZero() {
			t.Fatalf("%x vs %x: byte order %d, string order %d", prev[:], id[:], cmpB, cmpS)
		}
		prev = id
	}
}

func TestIDTime(t *testing.T) {
	for _, tc := range []struct {
		name string
		ms   uint64
	}{{"epoch", 0}, {"one", 1}, {"2025", 1_764_500_001_000}, {"largest", iulid.MaxMs}} {
		t.Run(tc.name, func(t *testing.T) {
			var id ID
			for i := range 6 {
				id[i] = byte(tc.ms >> (40 - 8*i))
			}
			id[15] = 1
			if got := id.Time(); got.UnixMilli() != int64(tc.ms) || got.Location() != time.Local {
				t.Fatalf("Time() = %v (%d ms), want %d ms in time.Local", got, got.UnixMilli(), tc.ms)
			}
		})
	}
	now := time.Now()
	if got := NewIDAt(now).Time(); !got.Equal(now.Truncate(time.Millisecond)) {
		t.Fatalf("NewIDAt(%v).Time() = %v, want it to the millisecond", now, got)
	}
}

// next returns id plus one in its 80-bit random part.
func next(id ID) ID {
	for i := 15; i >= 6; i-- {
		id[i]++
		if id[i] != 0 {
			break
		}
	}
	return id
}

// TestNewIDAtFixedClock: an injected clock that stands still still gets
// strictly increasing IDs with its time, each the previous plus one.
func TestNewIDAtFixedClock(t *testing.T) {
	now := time.Now()
	prev := NewIDAt(now)
	for range 1000 {
		id := NewIDAt(now)
		if id != next(prev) {
			t.Fatalf("NewIDAt(fixed) = %x after %x, want the previous plus one", id[:], prev[:])
		}
		if id.Time().UnixMilli() != now.UnixMilli() {
			t.Fatalf("NewIDAt(fixed) has time %v, want %v", id.Time(), now)
		}
		prev = id
	}
}

// TestNewIDAtEarlierTime: a time before the last ID's is raised to it, so
// IDs never decrease (a clock stepping back, or an injected clock in the
// past); times before 1970 count as 1970 and are raised too.
func TestNewIDAtEarlierTime(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   time.Time
	}{{"an hour ago", time.Now().Add(-time.Hour)}, {"1970", time.Unix(0, 0)}, {"before 1970", time.Unix(-86400, 0)}} {
		t.Run(tc.name, func(t *testing.T) {
			prev := NewID()
			if id := NewIDAt(tc.at); id != next(prev) {
				t.Fatalf("NewIDAt(%v) = %s after %s, want the previous plus one", tc.at, id, prev)
			}
		})
	}
}

// TestNewIDConcurrent: many goroutines making IDs at once get unique IDs,
// increasing in each goroutine; and across the process, IDs of the same
// millisecond are consecutive (each the previous plus one), so the process
// has one order. Run with -race.
func TestNewIDConcurrent(t *testing.T) {
	const goroutines, each = 16, 2000
	got := make([][]ID, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			ids := make([]ID, each)
			for i := range ids {
				ids[i] = NewID()
			}
			got[g] = ids
		})
	}
	wg.Wait()
	var all []ID
	for g, ids := range got {
		for i := 1; i < len(ids); i++ {
			if bytes.Compare(ids[i-1][:], ids[i][:]) >= 0 {
				t.Fatalf("goroutine %d: ID %d %s is not after %s", g, i, ids[i], ids[i-1])
			}
		}
		all = append(all, ids...)
	}
	slices.SortFunc(all, func(a, b ID) int { return bytes.Compare(a[:], b[:]) })
	sameMs := 0
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			t.Fatalf("ID %s made twice", all[i])
		}
		if all[i].Time().Equal(all[i-1].Time()) {
			sameMs++
			if all[i] != next(all[i-1]) {
				t.Fatalf("same-millisecond IDs %s and %s are not consecutive", all[i-1], all[i])
			}
		}
	}
	if sameMs == 0 {
		t.Fatalf("no two of %d IDs share a millisecond: the test proves nothing", len(all))
	}
}

func TestIDAllocs(t *testing.T) {
	id := NewID()
	s := id.String()
	for _, tc := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"NewID", 0, func() { _ = NewID() }},
		{"ParseID", 0, func() { _, _ = ParseID(s) }},
		{"String", 1, func() { _ = id.String() }},
		{"Time", 0, func() { _ = id.Time() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, tc.f); n > tc.max {
				t.Fatalf("%s allocates %v times, want at most %v", tc.name, n, tc.max)
			}
		})
	}
}
