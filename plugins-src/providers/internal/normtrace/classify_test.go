package normtrace_test

import (
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

// TestClassifyPayload: the payload is laid out as the build drivers'
// op 'c' reads it, with a negative status and an empty header value.
func TestClassifyPayload(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		headers [][2]string
		body    string
		want    string
	}{
		{"no headers", 429, nil, "{}",
			"\xad\x01\x00\x00\x00\x00\x00\x00" + "\x0a\x00\x00\x00\x00\x00\x00\x00" + "\x07\x00\x00\x00" + "\x00\x00\x00\x00" + "{}"},
		{"headers in order", -1, [][2]string{{"retry-after", "2"}, {"x", ""}}, "",
			"\xff\xff\xff\xff\xff\xff\xff\xff" + "\x0a\x00\x00\x00\x00\x00\x00\x00" + "\x07\x00\x00\x00" + "\x02\x00\x00\x00" +
				"\x0b\x00\x00\x00retry-after" + "\x01\x00\x00\x002" + "\x01\x00\x00\x00x" + "\x00\x00\x00\x00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := normtrace.ClassifyPayload(c.status, c.headers, []byte(c.body), time.Unix(10, 7))
			if string(got) != c.want {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
