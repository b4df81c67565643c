package norm

import (
	"bytes"
	"testing"
)

func TestPackMeta(t *testing.T) {
	tests := []struct {
		name    string
		meta    Meta
		payload string
		want    string
	}{
		{name: "no metadata keeps the payload", payload: "c2ln", want: "c2ln"},
		{name: "format, the framing signatures always had", meta: Meta{Format: "anthropic-claude-v1"}, payload: "c2ln",
			want: "\x00format=anthropic-claude-v1\x00c2ln"},
		{name: "item id and phase without payload", meta: Meta{Item: "msg_1", Phase: "commentary"},
			want: "\x00item=msg_1\x00\x00phase=commentary\x00"},
		{name: "other block", meta: Meta{Other: "server_tool_use"}, payload: `{"type":"server_tool_use"}`,
			want: "\x00other=server_tool_use\x00{\"type\":\"server_tool_use\"}"},
		{name: "a payload that starts like a frame is fenced off", meta: Meta{Format: "x"}, payload: "\x00format=y\x00sig",
			want: "\x00format=x\x00\x00\x00\x00format=y\x00sig"},
		{name: "a value with a NUL byte is left out", meta: Meta{Item: "a\x00b"}, payload: "p", want: "p"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := PackMeta(tc.meta, []byte(tc.payload))
			if string(got) != tc.want {
				t.Fatalf("PackMeta(%+v, %q) = %q; want %q", tc.meta, tc.payload, got, tc.want)
			}
			m, p := UnpackMeta(got)
			if tc.meta.Item == "a\x00b" {
				return
			}
			if m != tc.meta || string(p) != tc.payload {
				t.Errorf("UnpackMeta(%q) = %+v, %q; want %+v, %q", got, m, p, tc.meta, tc.payload)
			}
		})
	}
}

func TestUnpackMeta(t *testing.T) {
	tests := []struct {
		name    string
		sig     string
		want    Meta
		payload string
	}{
		{name: "plain vendor signature", sig: "EqQBCkgIBxABGAIiQ", payload: "EqQBCkgIBxABGAIiQ"},
		{name: "empty", sig: "", payload: ""},
		{name: "unterminated field is payload", sig: "\x00item=rs_1", payload: "\x00item=rs_1"},
		{name: "field without a value is payload", sig: "\x00item\x00x", payload: "\x00item\x00x"},
		{name: "field without a key is payload", sig: "\x00=v\x00x", payload: "\x00=v\x00x"},
		{name: "unknown key is skipped", sig: "\x00later=1\x00\x00item=fc_1\x00", want: Meta{Item: "fc_1"}},
		{name: "payload may contain NUL", sig: "\x00phase=final_answer\x00a\x00b", want: Meta{Phase: "final_answer"}, payload: "a\x00b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, p := UnpackMeta([]byte(tc.sig))
			if m != tc.want || string(p) != tc.payload {
				t.Errorf("UnpackMeta(%q) = %+v, %q; want %+v, %q", tc.sig, m, p, tc.want, tc.payload)
			}
		})
	}
}

// FuzzUnpackMeta checks that unpacking never loses bytes: packing what was
// unpacked gives back a signature that unpacks the same way, and a
// signature without a frame is its own payload.
func FuzzUnpackMeta(f *testing.F) {
	f.Add([]byte("\x00format=x\x00sig"))
	f.Add([]byte("\x00item=rs_1\x00\x00phase=commentary\x00"))
	f.Add([]byte("\x00other=web_search_tool_result\x00{}"))
	f.Add([]byte("plain"))
	f.Fuzz(func(t *testing.T, sig []byte) {
		m, p := UnpackMeta(sig)
		if len(sig) > 0 && sig[0] != 0 && (m != Meta{} || !bytes.Equal(p, sig)) {
			t.Fatalf("UnpackMeta(%q) = %+v, %q; a signature without a frame is its own payload", sig, m, p)
		}
		if !bytes.HasSuffix(sig, p) {
			t.Fatalf("UnpackMeta(%q) payload %q is not the signature's tail", sig, p)
		}
		m2, p2 := UnpackMeta(PackMeta(m, p))
		if m2 != m || !bytes.Equal(p2, p) {
			t.Fatalf("repacking %q: got %+v, %q; want %+v, %q", sig, m2, p2, m, p)
		}
		if m := (Meta{Item: "fc_1"}); true {
			if m2, p2 := UnpackMeta(PackMeta(m, sig)); m2 != m || !bytes.Equal(p2, sig) {
				t.Fatalf("PackMeta(%+v, %q) unpacks to %+v, %q", m, sig, m2, p2)
			}
		}
	})
}
