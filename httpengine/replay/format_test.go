package replay

import (
	"bytes"
	"errors"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func sample() []Exchange {
	return []Exchange{
		{
			Method: "POST", URL: "https://api.example.invalid/v1/run?stream=1",
			RequestHeader: http.Header{"Content-Type": {"application/json"}, "Authorization": {redacted}},
			RequestBody:   []byte("{\"q\":1}\n"),
			HeadAfter:     81 * time.Millisecond, StatusCode: 200, Proto: "HTTP/2.0",
			Header: http.Header{"Content-Type": {"text/event-stream"}, "X-Multi": {"a", "b \"quoted\""}},
			Chunks: []Chunk{
				{After: 1250 * time.Microsecond, Data: []byte("data: hello\n\n")},
				{After: 3 * time.Millisecond, Data: []byte{0, 1, 2, '\n', 0xff}},
			},
			End: EndEOF,
		},
		{Method: "GET", URL: "http://down.invalid/", RequestHeader: http.Header{}, Header: http.Header{},
			Failed: "dial tcp: lookup down.invalid: no such host"},
		{Method: "GET", URL: "http://cut.invalid/", RequestHeader: http.Header{}, Header: http.Header{},
			StatusCode: 502, Proto: "HTTP/1.1", Chunks: []Chunk{{Data: []byte("par")}}, End: "unexpected EOF"},
	}
}

func TestEncodeGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Encode(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", t.Name()+".golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("encoding changed; diff against %s (refresh with -update if intended):\n%s", golden, buf.Bytes())
	}
	got, err := Decode(want)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sample()) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, sample())
	}
}

func TestEncodeRefusesOpenBody(t *testing.T) {
	x := sample()[:1]
	x[0].End = ""
	if err := Encode(&bytes.Buffer{}, x); err == nil || !strings.Contains(err.Error(), "still being read") {
		t.Fatalf("Encode of an open body: %v", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	head := magic + "\n"
	tests := []struct {
		name string
		data string
		line int
		msg  string
	}{
		{"empty", "", 0, "not a replay recording"},
		{"wrong magic", "smith-http-replay 2\n", 1, "not a replay recording"},
		{"payload too long", head + "exchange \"GET\" \"http://x/\"\nresponse 200 \"HTTP/1.1\" 0\nchunk 0 99\nab\n", 4, "but only 3 remain"},
		{"payload without newline", head + "exchange \"GET\" \"http://x/\"\nresponse 200 \"HTTP/1.1\" 0\nchunk 0 2\nabcend \"eof\"\n", 4, "not followed by a newline"},
		{"cut inside an exchange", head + "exchange \"GET\" \"http://x/\"\nresponse 200 \"HTTP/1.1\" 0\n", 3, "cut short"},
		{"missing end before next", head + "exchange \"GET\" \"http://x/\"\nexchange \"GET\" \"http://y/\"\n", 3, "no end or failed"},
		{"bad status", head + "exchange \"GET\" \"http://x/\"\nresponse 20 \"HTTP/1.1\" 0\n", 3, "status 100-999"},
		{"negative chunk", head + "exchange \"GET\" \"http://x/\"\nresponse 200 \"HTTP/1.1\" 0\nchunk 0 -1\n", 4, "positive length"},
		{"leading zero", head + "exchange \"GET\" \"http://x/\"\nresponse 0200 \"HTTP/1.1\" 0\n", 3, "status 100-999"},
		{"bad quote", head + "exchange \"GET \"http://x/\"\n", 2, "want one space"},
		{"unterminated quote", head + "exchange \"GET\n", 2, "bad quoted string"},
		{"header after chunk", head + "exchange \"GET\" \"http://x/\"\nresponse 200 \"\" 0\nchunk 0 1\na\nheader \"A\" \"b\"\n", 6, "unexpected record"},
		{"chunk before response", head + "exchange \"GET\" \"http://x/\"\nchunk 0 1\na\n", 3, "unexpected record"},
		{"empty end", head + "exchange \"GET\" \"http://x/\"\nresponse 200 \"\" 0\nend \"\"\n", 4, "end needs"},
		{"field count", head + "exchange \"GET\"\n", 2, "takes 2 fields"},
		{"double space", head + "exchange \"GET\"  \"http://x/\"\n", 2, "want one space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.data))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Decode = %v, want a *SyntaxError", err)
			}
			if se.Line != tt.line || !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "replay: recording line ") {
				t.Fatalf("error %q (line %d), want line %d mentioning %q", err, se.Line, tt.line, tt.msg)
			}
		})
	}
}

// FuzzDecode: Decode never panics, and whatever it accepts re-encodes to a
// recording that decodes to the same exchanges and encodes identically.
func FuzzDecode(f *testing.F) {
	var buf bytes.Buffer
	Encode(&buf, sample())
	f.Add(buf.Bytes())
	f.Add([]byte(magic + "\n"))
	f.Add([]byte(magic + "\nexchange \"GET\" \"http://x/\"\nfailed \"boom\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		xs, err := Decode(data)
		if err != nil {
			return
		}
		var a bytes.Buffer
		if err := Encode(&a, xs); err != nil {
			t.Fatalf("re-encode of accepted input: %v", err)
		}
		ys, err := Decode(a.Bytes())
		if err != nil {
			t.Fatalf("decode of re-encoded input: %v\n%q", err, a.Bytes())
		}
		if !reflect.DeepEqual(xs, ys) {
			t.Fatalf("round trip changed exchanges:\n%+v\n%+v", xs, ys)
		}
		var b bytes.Buffer
		Encode(&b, ys)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatal("encoding is not deterministic")
		}
	})
}
