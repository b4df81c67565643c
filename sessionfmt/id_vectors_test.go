package sessionfmt

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	iulid "github.com/smith-agent/smith/sessionfmt/internal/ulid"
)

// vectorsPath is the golden file of ULID vectors produced by
// github.com/oklog/ulid/v2 v2.1.2 (see TestIDVectors).
const vectorsPath = "testdata/ulid-vectors.txt"

// idVector is one ID in every form.
type idVector struct {
	text string
	id   ID
	ms   uint64
}

// parseVector is one string given to the strict parser and its outcome:
// the ID, or the failed rule.
type parseVector struct {
	input  string
	id     ID
	reason iulid.Reason
}

var reasonNames = map[iulid.Reason]string{iulid.BadLength: "length", iulid.BadCharacter: "character", iulid.Overflow: "overflow"}

// vectorIDs returns the 200 IDs of the golden file: zero, all ones, each
// single bit, and 70 seeded random IDs.
func vectorIDs() []ID {
	ids := []ID{{}, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}}
	for bit := range 128 {
		var id ID
		id[bit/8] = 0x80 >> (bit % 8)
		ids = append(ids, id)
	}
	r := rand.New(rand.NewChaCha8([32]byte{'u', 'l', 'i', 'd'}))
	for len(ids) < 200 {
		var id ID
		for i := range id {
			id[i] = byte(r.Uint32())
		}
		ids = append(ids, id)
	}
	return ids
}

// vectorInputs returns the strings of the golden file's parse section:
// every byte value at the first, a middle and the last offset of a valid
// ULID; each vector ID lowercased; lengths and other edge cases.
func vectorInputs(ids []ID) []string {
	const base = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
	var in []string
	for _, off := range []int{0, 13, 25} {
		for c := range 256 {
			b := []byte(base)
			b[off] = byte(c)
			in = append(in, string(b))
		}
	}
	for _, id := range ids {
		var buf [iulid.EncodedSize]byte
		iulid.Encode(&buf, (*[16]byte)(&id))
		in = append(in, strings.ToLower(string(buf[:])))
	}
	return append(in,
		"", "0", base[:25], base+"0", base+base,
		"01arz3ndektsv4rrffq69g5fav", "01aRz3NdEkTsV4rRfFq69G5fAv",
		"00000000000000000000000000", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "7zzzzzzzzzzzzzzzzzzzzzzzzz",
		"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "80000000000000000000000000", "ZZZZZZZZZZZZZZZZZZZZZZZZZZ",
		"8000000000000000000000000U", "0000000000000000000000000I", "0000000000000000000000000L",
		"0000000000000000000000000O", "0000000000000000000000000u", "01ARZ3NDEKTSV4RRFFQ69G5FA\u00e9"[:26],
		"01ARZ3NDEKTSV4RRFFQ69G5F\u00e9", "01ARZ3NDEKTSV4RRFFQ69G5FA ", " 1ARZ3NDEKTSV4RRFFQ69G5FAV",
		"01ARZ3NDEKTSV4RRFFQ69G5FA\n", "01JH2Z3Q4R5S6T7V8W9X0Y1Z2A",
	)
}

// formatVectors writes the golden file: one line per vector, inputs quoted
// in Go syntax so every byte survives.
//
//	id <text> <hex> <ms> <RFC 3339 UTC time>
//	parse <quoted input> ok <hex>
//	parse <quoted input> <length|character|overflow>
func formatVectors(ids []idVector, parses []parseVector) []byte {
	var b bytes.Buffer
	b.WriteString("# ULID vectors produced by github.com/oklog/ulid/v2 v2.1.2 (ParseStrict, String, Time).\n")
	for _, v := range ids {
		fmt.Fprintf(&b, "id %s %x %d %s\n", v.text, v.id[:], v.ms, time.UnixMilli(int64(v.ms)).UTC().Format(time.RFC3339Nano))
	}
	for _, v := range parses {
		if v.reason == 0 {
			fmt.Fprintf(&b, "parse %q ok %x\n", v.input, v.id[:])
		} else {
			fmt.Fprintf(&b, "parse %q %s\n", v.input, reasonNames[v.reason])
		}
	}
	return b.Bytes()
}

// readVectors parses the golden file written by formatVectors.
func readVectors(data []byte) (ids []idVector, parses []parseVector, err error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		bad := func(why string) error { return fmt.Errorf("%s:%d: %s: %q", vectorsPath, n, why, line) }
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "id "):
			f := strings.Fields(line)
			if len(f) != 5 {
				return nil, nil, bad("want 5 fields")
			}
			v := idVector{text: f[1]}
			raw, err := hex.DecodeString(f[2])
			if err != nil || len(raw) != 16 {
				return nil, nil, bad("bad hex")
			}
			v.id = ID(raw)
			if v.ms, err = strconv.ParseUint(f[3], 10, 64); err != nil {
				return nil, nil, bad("bad ms")
			}
			if f[4] != time.UnixMilli(int64(v.ms)).UTC().Format(time.RFC3339Nano) {
				return nil, nil, bad("time does not match ms")
			}
			ids = append(ids, v)
		case strings.HasPrefix(line, "parse "):
			rest := line[len("parse "):]
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, nil, bad("bad quoted input")
			}
			v := parseVector{}
			v.input, _ = strconv.Unquote(q)
			outcome := strings.Fields(rest[len(q):])
			switch {
			case len(outcome) == 2 && outcome[0] == "ok":
				raw, err := hex.DecodeString(outcome[1])
				if err != nil || len(raw) != 16 {
					return nil, nil, bad("bad hex")
				}
				v.id = ID(raw)
			case len(outcome) == 1:
				for r, name := range reasonNames {
					if name == outcome[0] {
						v.reason = r
					}
				}
				if v.reason == 0 {
					return nil, nil, bad("unknown reason")
				}
			default:
				return nil, nil, bad("want ok <hex> or a reason")
			}
			parses = append(parses, v)
		default:
			return nil, nil, bad("unknown line")
		}
	}
	return ids, parses, sc.Err()
}
