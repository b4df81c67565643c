package sse

import (
	"reflect"
	"testing"
)

// FuzzFramer checks that any split of a body into chunks gives the same
// items and stats as feeding it whole, and that nothing panics.
func FuzzFramer(f *testing.F) {
	f.Add([]byte("event: a\ndata: 1\n\n"), uint8(1))
	f.Add([]byte("data: x\r\n\r\ndata: [DONE]\r\n\r\n"), uint8(3))
	f.Add([]byte(": c\n\ndata: a\ndata: b\r\rdata: c"), uint8(2))
	f.Add([]byte("data: {}\n\n{\n \"error\": 1\n}\n"), uint8(5))
	f.Fuzz(func(t *testing.T, body []byte, step uint8) {
		whole, ws := frameBytes([][]byte{body})
		var chunks [][]byte
		n := int(step%16) + 1
		for i := 0; i < len(body); {
			end := min(i+n, len(body))
			chunks = append(chunks, body[i:end])
			i, n = end, n%7+1 // vary the sizes
		}
		split, ss := frameBytes(chunks)
		if !reflect.DeepEqual(whole, split) || ws != ss {
			t.Fatalf("chunking changed the result:\nwhole %+v %+v\nsplit %+v %+v", whole, ws, split, ss)
		}
	})
}

func frameBytes(chunks [][]byte) ([]got, Stats) {
	var f Framer
	var out []got
	emit := func(it Item) { out = append(out, got{it.Kind, string(it.Name), string(it.Data), it.Done}) }
	for _, c := range chunks {
		f.Feed(c, emit)
	}
	f.Close(emit)
	return out, f.Stats()
}
