package sessionfmt

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/sessionfmt/internal/envelope"
	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

func dumpBytes(t testing.TB, path string) []byte {
	t.Helper()
	var out bytes.Buffer
	rep, err := Dump(&out, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Damaged() {
		t.Fatalf("dump report %+v", rep)
	}
	return out.Bytes()
}

func importBytes(t testing.TB, jsonl []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := Import(&out, bytes.NewReader(jsonl), nil); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// foreignFrames returns frames this encoder would not produce for their
// fields: a large entry stored uncompressed, and an entry of a future kind.
func foreignFrames(t testing.TB, parent ID) []byte {
	big := mustContent(t, strings.Repeat("uncompressed by an older writer ", 200))
	p, err := envelope.Encode(&envelope.Entry{ID: testID(7001), Parent: parent, Time: 5, Kind: uint8(KindMessage), Content: big})
	if err != nil {
		t.Fatal(err)
	}
	b := frame.Append(nil, frame.TypeEntry, 0, p)
	p, err = envelope.Encode(&envelope.Entry{ID: testID(7002), Parent: testID(7001), Time: 6, Kind: 77, Key: "future", Content: mustContent(t, 1)})
	if err != nil {
		t.Fatal(err)
	}
	return frame.Append(b, frame.TypeEntry, 0, p)
}

func TestDumpImportRoundTripExact(t *testing.T) {
	p, orig := realSession(t, 80, true)
	tests := []struct {
		name string
		file []byte
	}{
		{"representative with unknown frames", orig},
		{"header only", headerFrame()},
		{"foreign frames kept raw", append(bytes.Clone(orig), foreignFrames(t, testID(1))...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(p, tt.file, 0o600); err != nil {
				t.Fatal(err)
			}
			d := dumpBytes(t, p)
			if got := importBytes(t, d); !bytes.Equal(got, tt.file) {
				t.Fatalf("import(dump(f)) differs from f: %d vs %d bytes", len(got), len(tt.file))
			}
		})
	}
}

func TestDumpIsReadable(t *testing.T) {
	p, _ := realSession(t, 20, true)
	lines := strings.Split(strings.TrimSpace(string(dumpBytes(t, p))), "\n")
	var first, msg map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	if first["frame"] != "header" || first["version"] != float64(1) {
		t.Fatalf("first line %s", lines[0])
	}
	for _, l := range lines {
		if strings.Contains(l, `"kind":"message"`) {
			json.Unmarshal([]byte(l), &msg)
			break
		}
	}
	c, ok := msg["content"].(map[string]any)
	if !ok || c["1"] != "user" || msg["raw"] != nil || msg["cbor"] == nil || msg["time_ms"] == nil {
		t.Fatalf("message line %v", msg)
	}
	unknown := 0
	for _, l := range lines {
		if strings.Contains(l, `"frame":"unknown"`) {
			unknown++
		}
	}
	if unknown != 2 {
		t.Fatalf("%d unknown frame lines, want 2", unknown)
	}
}

// TestImportExternalEntries initialises a session from entries managed by
// another tool: no header line, JSON content, their own ids and order.
func TestImportExternalEntries(t *testing.T) {
	ids := []ID{testID(30), testID(10), testID(20)} // deliberately not sorted
	var b strings.Builder
	for i, id := range ids {
		parent := ""
		if i > 0 {
			parent = ids[i-1].String()
		}
		kind, extra := "message", ""
		if i == 2 {
			kind, extra = "tool_activity", `,"key":"call_9"`
		}
		b.WriteString(`{"frame":"entry","id":"` + id.String() + `","parent":"` + parent + `","time_ms":1700000000000,"kind":"` + kind + `"` + extra + `,"content":{"role":"user","n":` + string(rune('1'+i)) + `,"f":1.5}}` + "\n")
	}
	p := filepath.Join(t.TempDir(), "ext.session")
	if err := ImportFile(p, strings.NewReader(b.String()), nil); err != nil {
		t.Fatal(err)
	}
	s, rep, err := Load(p, nil)
	if err != nil || rep.Damaged() || s.Len() != 3 {
		t.Fatalf("%v %+v", err, rep)
	}
	for i, id := range ids {
		if s.ID(i) != id {
			t.Fatalf("entry %d is %s, want %s", i, s.ID(i), id)
		}
	}
	var c map[string]any
	if err := DecodeContent(s.Entry(1).Content, &c); err != nil || c["n"] != uint64(2) || c["f"] != 1.5 {
		t.Fatalf("content %v %v", c, err)
	}
	if s.Entry(2).Key != "call_9" || s.Kind(2) != KindToolActivity {
		t.Fatal("pairing key lost")
	}
	if err := ImportFile(p, strings.NewReader(b.String()), nil); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("import over an existing file: %v", err)
	}
}

func TestImportErrors(t *testing.T) {
	a, c := testID(1).String(), testID(2).String()
	entry := func(id, parent, rest string) string {
		return `{"frame":"entry","id":"` + id + `","parent":"` + parent + `","time_ms":1,"kind":"message","content":1` + rest + "}"
	}
	tests := []struct {
		name, in, want string
	}{
		{"not json", "{", "line 1"},
		{"unknown field", `{"frame":"entry","colour":1}`, `unknown field "colour"`},
		{"bad id", entry("nope", "", ""), "not a ULID"},
		{"parent after child", entry(a, c, "") + "\n" + entry(c, "", ""), "line 1: entry " + a + ": parent"},
		{"duplicate id", entry(a, "", "") + "\n" + entry(a, "", ""), "line 2: entry id " + a + " was already defined"},
		{"header not first", entry(a, "", "") + "\n" + `{"frame":"header","format":"smith.session","version":1}`, "line 2: a header frame belongs only on the first line"},
		{"future version", `{"frame":"header","format":"smith.session","version":9}`, "version 9"},
		{"bad kind", `{"frame":"entry","id":"` + a + `","time_ms":1,"kind":"poem","content":1}`, `unknown entry kind "poem"`},
		{"missing time", `{"frame":"entry","id":"` + a + `","kind":"message","content":1}`, "no time_ms"},
		{"missing pairing", `{"frame":"entry","id":"` + a + `","time_ms":1,"kind":"effect_completion","content":1}`, "no Pair"},
		{"select of missing entry", `{"frame":"select","leaf":"` + a + `"}`, "no earlier line defines"},
		{"unknown frame of known type", `{"frame":"unknown","type":2,"flags":0}`, "is a known frame type"},
		{"corrupt raw", `{"frame":"entry","raw":"AAAA"}`, "not one complete frame"},
		{"empty line", entry(a, "", "") + "\n\n", "line 2 is empty"},
		{"bad frame", `{"frame":"banana"}`, `frame "banana"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Import(&bytes.Buffer{}, strings.NewReader(tt.in), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "sessionfmt: import: line ") {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

func TestDumpDamaged(t *testing.T) {
	p, full := realSession(t, 20, false)
	sp := spans(t, full)
	b := bytes.Clone(full)
	b[sp[3].off+8] ^= 1
	os.WriteFile(p, b, 0o600)
	var out bytes.Buffer
	rep, err := Dump(&out, p, nil)
	if err != nil || len(rep.Skipped) != 1 || rep.Skipped[0].Off != sp[3].off {
		t.Fatalf("%v %+v", err, rep)
	}
	if n := strings.Count(out.String(), "\n"); n != len(sp)-1 {
		t.Fatalf("%d lines, want %d", n, len(sp)-1)
	}
}
