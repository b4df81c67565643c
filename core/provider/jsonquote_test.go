package provider

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestAppendJSONString(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{name: "empty", in: ""},
		{name: "plain", in: "data: {\"type\":\"ping\"}\n\n"},
		{name: "controls", in: "\x00\x01\b\f\n\r\t\x1f\x7f"},
		{name: "html", in: "<a href=\"x\">&amp;</a>"},
		{name: "separators", in: "a\u2028b\u2029c"},
		{name: "unicode", in: "héllo, 世界 🙂"},
		{name: "invalid-utf8", in: "a\xffb\xc3(c\xe2\x82"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, _ := json.Marshal(tt.in)
			if got := appendJSONString([]byte("x"), []byte(tt.in)); !bytes.Equal(got, append([]byte("x"), want...)) {
				t.Errorf("appendJSONString(%q) = %s; json.Marshal: %s", tt.in, got[1:], want)
			}
		})
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\x00<>&\u2028", "\xff\xfe", "日本"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		want, _ := json.Marshal(string(s))
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendJSONString(%q) = %s; json.Marshal: %s", s, got, want)
		}
	})
}

// TestEncodeExchangeOutput: the journaled output is exchangeOutput as
// json.Marshal writes it, however the body was cut into chunks (a rune
// split across two chunks included).
func TestEncodeExchangeOutput(t *testing.T) {
	body := "data: {\"text\":\"héllo <b>\"}\n\n\xffdata: [DONE]\n\n"
	tests := []struct {
		name    string
		status  int
		outcome string
		chunks  []string
	}{
		{name: "whole", status: 200, outcome: "complete", chunks: []string{body}},
		{name: "split-rune", status: 200, outcome: "truncated", chunks: []string{body[:19], body[19:]}},
		{name: "bytes", status: 529, outcome: "complete", chunks: splitEvery(body, 1)},
		{name: "empty", status: 0, outcome: "", chunks: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var chunks [][]byte
			whole := ""
			for _, c := range tt.chunks {
				chunks = append(chunks, []byte(c))
				whole += c
			}
			want, _ := json.Marshal(exchangeOutput{Status: tt.status, Outcome: tt.outcome, Body: whole})
			if got := encodeExchangeOutput(tt.status, tt.outcome, chunks); !bytes.Equal(got, want) {
				t.Errorf("encodeExchangeOutput = %s\njson.Marshal = %s", got, want)
			}
		})
	}
}

func splitEvery(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// FuzzAppendJSONChunks: however a body is cut into chunks (runes split
// across them included), it is written as the joined body would be.
func FuzzAppendJSONChunks(f *testing.F) {
	for _, s := range []string{"", "a\"b", "日本語\u2028", "\xe2\x82\xac€\xf0\x9f\x98\x80", "\xe2a\xf0\x9f"} {
		f.Add([]byte(s), []byte{1, 2, 3})
	}
	f.Fuzz(func(t *testing.T, s, cuts []byte) {
		var chunks [][]byte
		rest := s
		for _, c := range cuts {
			k := min(int(c%8), len(rest))
			chunks = append(chunks, rest[:k])
			rest = rest[k:]
		}
		chunks = append(chunks, rest)
		want := appendJSONString(nil, s)
		if got := appendJSONChunks(nil, chunks); !bytes.Equal(got, want) {
			t.Fatalf("appendJSONChunks(%q) = %s; want %s", chunks, got, want)
		}
	})
}
