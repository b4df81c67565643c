package sse

import (
	"reflect"
	"strings"
	"testing"
)

// got is one reported item, copied out of the callback.
type got struct {
	Kind Kind
	Name string
	Data string
	Done bool
}

func frame(chunks ...string) ([]got, Stats) {
	var f Framer
	var out []got
	emit := func(it Item) { out = append(out, got{it.Kind, string(it.Name), string(it.Data), it.Done}) }
	for _, c := range chunks {
		f.Feed([]byte(c), emit)
	}
	f.Close(emit)
	return out, f.Stats()
}

func TestFramer(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []got
		stats  Stats
	}{
		{
			name:   "lf events with names",
			chunks: []string{"event: a\ndata: {\"x\":1}\n\nevent: b\ndata: 2\n\n"},
			want:   []got{{KindEvent, "a", `{"x":1}`, false}, {KindEvent, "b", "2", false}},
			stats:  Stats{LineEndings: EndingsLF, EventLines: true, Events: 2},
		},
		{
			name:   "crlf split between cr and lf",
			chunks: []string{"data: 1\r", "\n\r", "\ndata: 2\r\n\r\n"},
			want:   []got{{KindEvent, "", "1", false}, {KindEvent, "", "2", false}},
			stats:  Stats{LineEndings: EndingsCRLF, Events: 2},
		},
		{
			name:   "bare cr separators",
			chunks: []string{"data: 1\r\rdata: 2\r\r"},
			want:   []got{{KindEvent, "", "1", false}, {KindEvent, "", "2", false}},
			stats:  Stats{LineEndings: EndingsCR, Events: 2},
		},
		{
			name:   "multi-line data joins with lf, optional space only once",
			chunks: []string{"data:a\ndata:  b\ndata\n\n"},
			want:   []got{{KindEvent, "", "a\n b\n", false}},
			stats:  Stats{LineEndings: EndingsLF, Events: 1},
		},
		{
			name:   "comments, id and retry are not data",
			chunks: []string{": OPENROUTER PROCESSING\n\nid: 7\nretry: 10\ndata: x\n\n:\n"},
			want:   []got{{KindEvent, "", "x", false}},
			stats:  Stats{LineEndings: EndingsLF, Events: 1, CommentLines: 2},
		},
		{
			name:   "done sentinel is reported and not counted",
			chunks: []string{"data: {}\n\ndata: [DONE]\n\n"},
			want:   []got{{KindEvent, "", "{}", false}, {KindEvent, "", "[DONE]", true}},
			stats:  Stats{LineEndings: EndingsLF, Events: 1, Done: true},
		},
		{
			name:   "body ends without a blank line",
			chunks: []string{"data: 1\n\ndata: 2"},
			want:   []got{{KindEvent, "", "1", false}, {KindEvent, "", "2", false}},
			stats:  Stats{LineEndings: EndingsLF, Events: 2},
		},
		{
			name:   "event name without data dispatches nothing",
			chunks: []string{"event: ping\n\ndata: 1\n\n"},
			want:   []got{{KindEvent, "", "1", false}},
			stats:  Stats{LineEndings: EndingsLF, EventLines: true, Events: 1},
		},
		{
			name:   "bare json after the events is non-sse text",
			chunks: []string{"data: {}\r\n\r\n{\n  \"error\": {\n    \"code\": 500\n  }\n}\n"},
			want: []got{{KindEvent, "", "{}", false}, {KindText, "", "{", false},
				{KindText, "", `  "error": {`, false}, {KindText, "", `    "code": 500`, false},
				{KindText, "", "  }", false}, {KindText, "", "}", false}},
			stats: Stats{LineEndings: EndingsMixed, Events: 1, NonSSE: true},
		},
		{
			name:   "utf-8 split inside a sequence",
			chunks: []string{"data: Ol\xc3", "\xa1!\n\n"},
			want:   []got{{KindEvent, "", "Olá!", false}},
			stats:  Stats{LineEndings: EndingsLF, Events: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, stats := frame(tt.chunks...)
			if !reflect.DeepEqual(items, tt.want) {
				t.Errorf("items:\n got %+v\nwant %+v", items, tt.want)
			}
			stats.Bytes = 0
			if stats != tt.stats {
				t.Errorf("stats: got %+v, want %+v", stats, tt.stats)
			}
			// The same body one byte at a time gives the same result.
			bytes1 := strings.Split(strings.Join(tt.chunks, ""), "")
			items1, stats1 := frame(bytes1...)
			stats1.Bytes = 0
			if !reflect.DeepEqual(items1, items) || stats1 != stats {
				t.Errorf("byte-at-a-time differs:\n got %+v %+v\nwant %+v %+v", items1, stats1, items, stats)
			}
		})
	}
}

func TestFramerAllocs(t *testing.T) {
	body := []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0}\n\n")
	var f Framer
	emit := func(Item) {}
	f.Feed(body, emit) // warm the buffers
	if n := testing.AllocsPerRun(100, func() { f.Feed(body, emit) }); n != 0 {
		t.Errorf("Feed of a whole event allocated %v times per call, want 0 once buffers are warm", n)
	}
}
