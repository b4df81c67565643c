package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/smith-agent/smith/wit/fs"
	"github.com/smith-agent/smith/wit/tool"
)

// sample is what the decode tests read: one field of each kind.
type sample struct {
	Path  string
	N     int
	B     bool
	Items []string
}

func decodeSample(args string) (sample, error) {
	var s sample
	err := decode("t", args, strField("path", &s.Path), intField("n", &s.N), boolField("b", &s.B),
		listField("items", func(r *reader) error {
			var v string
			err := r.into(strField("items[]", &v))
			s.Items = append(s.Items, v)
			return err
		}))
	return s, err
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want sample
		err  string // substring of the fault; "" means success
	}{
		{name: "empty-object", in: `{}`},
		{name: "all-kinds", in: ` { "path" : "a/b.go", "n": 42, "b": true, "items": ["x", "y"] } `,
			want: sample{Path: "a/b.go", N: 42, B: true, Items: []string{"x", "y"}}},
		{name: "nulls-leave-zero", in: `{"path":null,"n":null,"b":null,"items":null}`},
		{name: "unknown-skipped", in: `{"x":{"y":[1,2,{"z":null}],"w":"q"},"path":"p","t":false,"u":-1.5e3}`, want: sample{Path: "p"}},
		{name: "escapes", in: `{"path":"a\"b\\c\/d\n\t\r\b\f\u00e9\ud83d\ude00"}`, want: sample{Path: "a\"b\\c/d\n\t\r\b\fé😀"}},
		{name: "lone-surrogate", in: `{"path":"\ud83dx"}`, want: sample{Path: "\uFFFDx"}},
		{name: "invalid-utf8-replaced", in: "{\"path\":\"a\xffb\"}", want: sample{Path: "a\uFFFDb"}},
		{name: "whole-float", in: `{"n":3.0}`, want: sample{N: 3}},
		{name: "exponent", in: `{"n":1e3}`, want: sample{N: 1000}},
		{name: "negative", in: `{"n":-7}`, want: sample{N: -7}},
		{name: "duplicate-last-wins", in: `{"path":"a","path":"b"}`, want: sample{Path: "b"}},
		{name: "empty-list", in: `{"items":[]}`},
		{name: "not-object", in: `["path"]`, err: "the arguments must be a JSON object, not array"},
		{name: "empty-input", in: ``, err: "the input ends at offset 0"},
		{name: "string-for-int", in: `{"n":"3"}`, err: `"n" must be an integer, not string`},
		{name: "fraction", in: `{"n":2.5}`, err: `"n" must be a whole number`},
		{name: "huge", in: `{"n":1e300}`, err: `"n" must be a whole number`},
		{name: "int-for-string", in: `{"path":3}`, err: `"path" must be a string, not number`},
		{name: "bad-bool", in: `{"b":"yes"}`, err: `"b" must be true or false, not string`},
		{name: "trailing-text", in: `{} x`, err: "invalid character 'x' at offset 3 after the top-level value"},
		{name: "trailing-comma", in: `{"path":"a",}`, err: "invalid character '}' at offset 12 looking for an object key"},
		{name: "missing-colon", in: `{"path" "a"}`, err: `invalid character '"' at offset 8 after an object key`},
		{name: "unterminated", in: `{"path":"abc`, err: "the input ends at offset 12 in a string literal"},
		{name: "raw-newline", in: "{\"path\":\"a\nb\"}", err: "invalid character '\\n' at offset 10 in a string literal"},
		{name: "bad-escape", in: `{"path":"\q"}`, err: "invalid character 'q' at offset 10 in a string literal"},
		{name: "bad-unicode", in: `{"path":"\u12G4"}`, err: "invalid character 'G' at offset 13 in a string literal"},
		{name: "leading-zero", in: `{"n":01}`, err: "invalid character '1' at offset 6 after an object member"},
		{name: "list-not-list", in: `{"items":"x"}`, err: `"items" must be a list, not string`},
		{name: "list-bad-separator", in: `{"items":["x" "y"]}`, err: "invalid character '\"' at offset 14 after an array element"},
		{name: "deep-unknown-skipped", in: `{"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `,"path":"p"}`, want: sample{Path: "p"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeSample(tt.in)
			if tt.err != "" {
				var f tool.ToolFault
				if !errors.As(err, &f) || f.Case != tool.ToolFaultInvalidArguments || !strings.Contains(f.InvalidArguments, tt.err) ||
					!strings.Contains(f.InvalidArguments, "send a JSON object matching the tool's schema") {
					t.Fatalf("decode(%q) = %v; want an invalid-arguments fault containing %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("decode(%q): %v", tt.in, err)
			}
			if got.Path != tt.want.Path || got.N != tt.want.N || got.B != tt.want.B || strings.Join(got.Items, "|") != strings.Join(tt.want.Items, "|") {
				t.Errorf("decode(%q) = %+v; want %+v", tt.in, got, tt.want)
			}
		})
	}
}

// TestDecodeAllocs bounds the allocations of decoding a typical call:
// the byte copy of the arguments, the reader and its member closure, the
// decoder's nesting stack and one per string field (five here).
func TestDecodeAllocs(t *testing.T) {
	args := `{"path":"some/file.go","n":5}`
	var path string
	var n int
	allocs := testing.AllocsPerRun(100, func() {
		_ = decode("t", args, strField("path", &path), intField("n", &n))
	})
	if allocs > 5 {
		t.Errorf("decode allocates %v times; want at most 5", allocs)
	}
}

// FuzzDecode compares decode with encoding/json on the same input: both
// accept or both refuse, and accepted values agree.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{}`, `{"path":"a\u00e9","n":1,"b":true,"items":["x"]}`, `{"n":1.5}`, `{"x":[{"y":null}]}`, `[1]`, `{"path":"\ud800"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := decodeSample(in)
		var m map[string]any
		var jerr error
		switch trimmed := bytes.TrimSpace([]byte(in)); {
		case !json.Valid([]byte(in)):
			jerr = errors.New("invalid JSON")
		case trimmed[0] != '{':
			jerr = errors.New("not an object")
		default:
			d := json.NewDecoder(strings.NewReader(in))
			d.UseNumber()
			jerr = d.Decode(&m)
		}
		want, wantErr := expectSample(m)
		if jerr != nil {
			if err == nil {
				t.Fatalf("decode(%q) = %+v; encoding/json refuses it: %v", in, got, jerr)
			}
			return
		}
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("decode(%q) = %+v, %v; encoding/json gives %+v, %v", in, got, err, want, wantErr)
		}
		if err == nil && (got.Path != want.Path || got.N != want.N || got.B != want.B || strings.Join(got.Items, "\x00") != strings.Join(want.Items, "\x00")) {
			t.Fatalf("decode(%q) = %+v; encoding/json gives %+v", in, got, want)
		}
	})
}

// expectSample applies decode's typing rules to encoding/json's generic
// result.
func expectSample(m map[string]any) (sample, error) {
	var s sample
	bad := errors.New("wrong type")
	if v, ok := m["path"]; ok && v != nil {
		str, ok := v.(string)
		if !ok {
			return s, bad
		}
		s.Path = str
	}
	if v, ok := m["n"]; ok && v != nil {
		num, ok := v.(json.Number)
		if !ok {
			return s, bad
		}
		if n, err := strconv.Atoi(string(num)); err == nil {
			s.N = n
		} else if f, err := strconv.ParseFloat(string(num), 64); err == nil && f == float64(int64(f)) && f >= -1<<53 && f <= 1<<53 {
			s.N = int(f)
		} else {
			return s, bad
		}
	}
	if v, ok := m["b"]; ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return s, bad
		}
		s.B = b
	}
	if v, ok := m["items"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return s, bad
		}
		for _, e := range list {
			switch e := e.(type) {
			case string:
				s.Items = append(s.Items, e)
			case nil:
				s.Items = append(s.Items, "")
			default:
				return s, bad
			}
		}
	}
	return s, nil
}

// editHost records the edits it is asked to apply.
type editHost struct {
	host
	path  string
	edits []fs.TextEdit
}

func (h *editHost) EditFile(path string, edits []fs.TextEdit, _ fs.EditOptions) (fs.EditOutcome, error) {
	h.path, h.edits = path, edits
	return fs.EditOutcome{FirstChangedLine: 3, Diff: "--- a\n+++ b\n"}, nil
}

func TestRunEdit(t *testing.T) {
	tests := []struct {
		name  string
		args  string
		edits []fs.TextEdit
		out   string // prefix of the output
		err   string // substring of the fault
	}{
		{name: "one", args: `{"path":"a.go","old_text":"x","new_text":"y"}`, edits: []fs.TextEdit{{OldText: "x", NewText: "y"}},
			out: "Edited a.go at line 3.\n--- a"},
		{name: "delete", args: `{"path":"a.go","old_text":"x","new_text":""}`, edits: []fs.TextEdit{{OldText: "x"}}, out: "Edited a.go at line 3."},
		{name: "several", args: `{"path":"a.go","edits":[{"old_text":"x","new_text":"y"},{"new_text":"w","old_text":"z"}]}`,
			edits: []fs.TextEdit{{OldText: "x", NewText: "y"}, {OldText: "z", NewText: "w"}}, out: "Edited a.go (2 replacements) at line 3."},
		{name: "both-forms", args: `{"path":"a.go","old_text":"x","new_text":"y","edits":[{"old_text":"z","new_text":"w"}]}`, err: "not both"},
		{name: "old-without-new", args: `{"path":"a.go","old_text":"x"}`, err: "old_text and new_text go together"},
		{name: "nothing", args: `{"path":"a.go"}`, err: "nothing to replace"},
		{name: "element-missing-new", args: `{"path":"a.go","edits":[{"old_text":"x","new_text":"y"},{"old_text":"z"}]}`, err: "edits[1] needs both old_text and new_text"},
		{name: "identical", args: `{"path":"a.go","old_text":"x","new_text":"x"}`, err: "old_text and new_text are identical"},
		{name: "identical-in-list", args: `{"path":"a.go","edits":[{"old_text":"x","new_text":"y"},{"old_text":"z","new_text":"z"}]}`, err: "edits[1] has old_text and new_text identical"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &editHost{}
			out, err := runEdit(h, tt.args, "")
			if tt.err != "" {
				var f tool.ToolFault
				if !errors.As(err, &f) || f.Case != tool.ToolFaultInvalidArguments || !strings.Contains(f.InvalidArguments, tt.err) {
					t.Fatalf("runEdit(%s) = %q, %v; want an invalid-arguments fault containing %q", tt.args, out, err, tt.err)
				}
				if h.edits != nil {
					t.Errorf("the host was asked to edit after a refusal: %+v", h.edits)
				}
				return
			}
			if err != nil || !strings.HasPrefix(out, tt.out) {
				t.Fatalf("runEdit(%s) = %q, %v; want output starting %q", tt.args, out, err, tt.out)
			}
			if h.path != "a.go" || len(h.edits) != len(tt.edits) {
				t.Fatalf("host got %q %+v; want %+v", h.path, h.edits, tt.edits)
			}
			for i := range tt.edits {
				if h.edits[i] != tt.edits[i] {
					t.Errorf("edit %d = %+v; want %+v", i, h.edits[i], tt.edits[i])
				}
			}
		})
	}
}
