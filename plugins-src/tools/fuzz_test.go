package tools_test

import (
	"encoding/binary"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// ask sends the crate's native fuzz driver (src/serve.rs, built once per
// test binary by rustdriver) one request: the operation, and a payload of
// the limit (u32, little-endian) followed by the input.
func ask(tb testing.TB, op byte, limit uint32, input []byte) []byte {
	tb.Helper()
	d := rustdriver.Start(tb, filepath.Join("src", "lib.rs"), "--cfg", "tools_serve")
	payload := make([]byte, 4, 4+len(input))
	binary.LittleEndian.PutUint32(payload, limit)
	return d.Ask(tb, op, append(payload, input...))
}

// rustDecode decodes in as the sample object with the crate's reader.
func rustDecode(tb testing.TB, in string) (sample, string) {
	a := ask(tb, 'd', 0, []byte(in))
	next := func() string {
		n := binary.LittleEndian.Uint32(a)
		s := string(a[4 : 4+n])
		a = a[4+n:]
		return s
	}
	status := a[0]
	a = a[1:]
	if status == 1 {
		return sample{}, next()
	}
	var s sample
	s.Path = next()
	s.N = int(int64(binary.LittleEndian.Uint64(a)))
	s.B = a[8] == 1
	count := binary.LittleEndian.Uint32(a[9:])
	a = a[13:]
	for range count {
		s.Items = append(s.Items, next())
	}
	return s, ""
}

// FuzzDecode holds the crate's argument reader to the Go plugin's: the
// same values, or the same message, for any input.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{}`, `{"path":"a\u00e9","n":1,"b":true,"items":["x"]}`, `{"n":1.5}`, `{"x":[{"y":null}]}`, `[1]`, `{"path":"\ud800"}`,
		`{"n":1e-400}`, "{\"path\":\"a\xe6\x80b\"}", `{"items":["x" "y"]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, msg := rustDecode(t, in)
		want, err := referenceDecode(in)
		if err != nil {
			if msg != err.Error() {
				t.Fatalf("decode(%q) = %+v, %q; the Go plugin refused it with %q", in, got, msg, err)
			}
			return
		}
		if msg != "" || got.Path != want.Path || got.N != want.N || got.B != want.B || !slices.Equal(got.Items, want.Items) {
			t.Fatalf("decode(%q) = %+v, %q; the Go plugin gave %+v", in, got, msg, want)
		}
	})
}

// FuzzBound holds the crate's output bounding to the Go plugin's, byte
// for byte (invalid UTF-8 included), which kept the result within the
// limit, a prefix of the input plus the notice, and valid UTF-8 valid.
func FuzzBound(f *testing.F) {
	f.Add("hello\nworld\n", 8)
	f.Add(strings.Repeat("é\n", 300), 150)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit = limit % 4096
		if limit < 0 {
			limit = -limit
		}
		got := string(ask(t, 'b', uint32(limit), []byte(s)))
		if want := referenceBound(s, limit); got != want {
			t.Fatalf("bound(%q, %d) = %q; the Go plugin gave %q", s, limit, got, want)
		}
	})
}

// fuzzTools are the tools FuzzInvoke calls: all but bash, whose arbitrary
// command lines would run on this machine.
var fuzzTools = []string{"read", "write", "edit", "find", "grep", "ls"}

// FuzzInvoke sends arbitrary arguments to the built module through the
// real host: every call ends in output or a tool fault (an error result),
// never a trap or a host error.
func FuzzInvoke(f *testing.F) {
	for _, s := range []struct {
		tool uint8
		args string
	}{
		{0, `{"path":"a.txt","offset":2,"limit":1}`},
		{1, `{"path":"d/a.txt","content":"x\ny\n"}`},
		{2, `{"path":"a.txt","old_text":"x","new_text":"z"}`},
		{2, `{"path":"a.txt","edits":[{"old_text":"y","new_text":"w"},{"old_text":"x","new_text":"v"}]}`},
		{3, `{"pattern":"**/*","include_ignored":true,"limit":3}`},
		{4, `{"pattern":"x","literal":true,"ignore_case":true,"glob":"*.txt"}`},
		{5, `{"path":"d","limit":1}`},
		{0, `{"path":"\u00e9\ud800"}`},
	} {
		f.Add(s.tool, s.args)
	}
	p := newProject(f, plugin.Effects{})
	write(f, p, "a.txt", "x\ny\n")
	write(f, p, "d/b.txt", "x\n")
	f.Fuzz(func(t *testing.T, tool uint8, args string) {
		name := fuzzTools[int(tool)%len(fuzzTools)]
		res, out, err := p.call(t, name, args)
		if err != nil {
			t.Fatalf("%s %s: the host failed (a trap?): %v", name, args, err)
		}
		if out == "" {
			t.Fatalf("%s %s: empty output (IsError %v)", name, args, res.IsError)
		}
	})
}

// FuzzTools runs every tool, bash included, on arbitrary bytes as
// arguments, natively against the crate's echo host (no schema check
// filters them first, and nothing is run): each answers with output or a
// fault and never panics, which in the plugin would be a trap.
func FuzzTools(f *testing.F) {
	f.Add(uint8(2), `{"path":"a","edits":[{"old_text":"x","new_text":"y"},{"old_text":"z"}]}`)
	f.Add(uint8(3), `{"command":"ls","cwd":"../..//x/.","timeout":1e9}`)
	f.Add(uint8(0), `{"path":"\ud800","offset":9223372036854775807,"limit":-1}`)
	f.Fuzz(func(t *testing.T, tool uint8, args string) {
		got := string(ask(t, 't', uint32(tool), []byte(args)))
		if !strings.HasPrefix(got, "ok ") && !strings.HasPrefix(got, "fault1 ") && !strings.HasPrefix(got, "fault2 ") {
			t.Fatalf("tool %d on %q answered %q", tool, args, got)
		}
	})
}
