package secret

import (
	"bytes"
	"encoding/base64"
	"testing"
)

// FuzzRedact registers fixed secrets and, if Add accepts it, one fuzzed
// value, then checks that Redact does not panic, that its output holds no
// registered plaintext, that redacting the output again changes nothing,
// and that a Writer and a Stream fed the data in two pieces pass on the same.
func FuzzRedact(f *testing.F) {
	f.Add([]byte("key="+apiKey), "fuzzed-value", 3)
	f.Add([]byte("Basic "+base64.StdEncoding.EncodeToString([]byte("u:"+password))), "", 0)
	f.Add([]byte("abcdefgh-and-more abcdefgh"), "abcdefgh-and", 5)
	f.Add([]byte("${secret:API_KEY}"+apiKey[:10]), "12345678", 9)
	f.Add([]byte{}, "", 0)
	f.Fuzz(func(t *testing.T, data []byte, extra string, split int) {
		var s Set
		secrets := []Secret{
			{Name: "API_KEY", Value: apiKey},
			{Name: "DB_PASSWORD", Value: password},
			{Name: "SHORT", Value: "abcdefgh"},
			{Name: "LONG", Value: "abcdefgh-and-more"},
		}
		for _, sec := range secrets {
			mustAdd(t, &s, sec)
		}
		if s.Add(Secret{Name: "FUZZ", Value: extra}) == nil {
			secrets = append(secrets, Secret{Name: "FUZZ", Value: extra})
		}
		in := bytes.Clone(data)
		out, ok := s.Redact(data)
		if !bytes.Equal(data, in) {
			t.Fatal("Redact changed its input")
		}
		if !ok && !bytes.Equal(out, data) {
			t.Fatalf("Redact changed %q to %q without a match", data, out)
		}
		for _, sec := range secrets {
			if bytes.Contains(out, []byte(sec.Value)) {
				t.Fatalf("Redact(%q) = %q holds %s", data, out, sec.Name)
			}
		}
		if again, ok := s.Redact(out); ok || !bytes.Equal(again, out) {
			t.Fatalf("Redact(%q) = %q, but Redact of that = %q", data, out, again)
		}
		if s.Contains(out) || s.Contains(data) != ok {
			t.Fatal("Contains disagrees with Redact")
		}
		if split < 0 {
			split = -split
		}
		if len(data) > 0 {
			split %= len(data) + 1
		} else {
			split = 0
		}
		var b bytes.Buffer
		w := s.Writer(&b)
		w.Write(data[:split])
		w.Write(data[split:])
		w.Close()
		if !bytes.Equal(b.Bytes(), out) {
			t.Fatalf("Writer split at %d wrote %q, Redact %q", split, b.Bytes(), out)
		}
		st := s.Stream()
		got := append([]byte(nil), st.Next(data[:split])...)
		got = append(got, st.Next(data[split:])...)
		if got = append(got, st.Flush()...); !bytes.Equal(got, out) {
			t.Fatalf("Stream split at %d passed on %q, Redact %q", split, got, out)
		}
	})
}
