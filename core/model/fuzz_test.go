package model

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzUnmarshalMessage checks that decoding never panics and that whatever
// decodes re-encodes to something that decodes to the same message.
func FuzzUnmarshalMessage(f *testing.F) {
	f.Add([]byte(`{"role":"user","content":[{"type":"text","text":"hi"}]}`))
	f.Add([]byte(`{"role":"assistant","content":[{"type":"tool_call","id":"c","name":"n","arguments":{}}],"stop":"tool_use","usage":{"input":1,"output":null}}`))
	f.Add([]byte(`{"role":"tool_result","call_id":"c","name":"n","content":[],"mutation":"applied"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := UnmarshalMessage(b)
		if err != nil {
			return
		}
		enc, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("re-encode %#v: %v", m, err)
		}
		back, err := UnmarshalMessage(enc)
		if err != nil {
			t.Fatalf("decode re-encoding %s: %v", enc, err)
		}
		if !reflect.DeepEqual(normalize(back), normalize(m)) {
			t.Fatalf("round trip differs:\n%#v\n%#v", back, m)
		}
	})
}

// FuzzUnmarshalStreamEvent checks that decoding never panics.
func FuzzUnmarshalStreamEvent(f *testing.F) {
	f.Add([]byte(`{"type":"done","reason":"end","usage":{}}`))
	f.Add([]byte(`{"type":"toolcall_delta","index":0,"arguments":"{"}`))
	f.Add([]byte(`{"type":"error","error":{"kind":"aborted","message":"x"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ev, err := UnmarshalStreamEvent(b)
		if err != nil {
			return
		}
		if _, err := json.Marshal(ev); err != nil {
			t.Fatalf("re-encode %#v: %v", ev, err)
		}
	})
}

// normalize maps empty byte slices and raw JSON to a canonical form, since
// JSON does not distinguish nil from empty.
func normalize(m Message) Message {
	b, _ := json.Marshal(m)
	var v any
	_ = json.Unmarshal(b, &v)
	out, _ := json.Marshal(v)
	back, _ := UnmarshalMessage(out)
	return back
}
