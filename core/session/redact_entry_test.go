package session

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// nearSecret returns bytes holding tokValue with one of its last bits
// changed, at an alignment where their base64 still spells the characters
// that depend on tokValue alone: the text holds an encoding of the secret
// although the bytes do not hold the secret.
func nearSecret(t *testing.T, set *secret.Set) []byte {
	t.Helper()
	for k := range 3 {
		for flip := byte(1); flip < 16; flip++ {
			b := append(bytes.Repeat([]byte{'z'}, k), tokValue...)
			b[len(b)-1] ^= flip
			b = append(b, '!')
			if !set.Contains(b) && set.Contains([]byte(base64.StdEncoding.EncodeToString(b))) {
				return b
			}
		}
	}
	t.Fatal("no alignment leaves the last bits of the secret out of its base64")
	return nil
}

// TestRedactorKeepsPayloadsReadable: a secret inside a message block's
// base64 field (an image's data, a signature, encrypted thinking), at each
// of the three byte alignments, is redacted in the bytes the field holds:
// the field stays base64, the session reopens and decodes, the bytes read
// back are the redacted bytes, and the file holds neither the secret nor an
// encoding of it. Bytes whose base64 spells the secret although they do not
// hold it are dropped.
func TestRedactorKeepsPayloadsReadable(t *testing.T) {
	set := tokSet(t)
	redacted := func(b []byte) []byte {
		out, _ := set.Redact(b)
		return out
	}
	near := nearSecret(t, set)
	tests := []struct {
		name string
		raw  []byte // the payload written
		want []byte // the payload read back
	}{
		{name: "aligned", raw: []byte(tokValue + "\x89PNG"), want: redacted([]byte(tokValue + "\x89PNG"))},
		{name: "one byte in", raw: []byte("\x00" + tokValue + "\xff\xfe"), want: redacted([]byte("\x00" + tokValue + "\xff\xfe"))},
		{name: "two bytes in", raw: []byte("\x00\x01" + tokValue), want: redacted([]byte("\x00\x01" + tokValue))},
		{name: "near the secret", raw: near, want: []byte{}},
		{name: "no secret", raw: []byte("\x89PNG\r\n\x1a\n plain"), want: []byte("\x89PNG\r\n\x1a\n plain")},
	}
	blocks := []struct {
		name  string
		block func(raw []byte) model.Content
		get   func(c model.Content) []byte
	}{
		{name: "image", block: func(raw []byte) model.Content { return model.Image{MediaType: "image/png", Data: raw} },
			get: func(c model.Content) []byte { return c.(model.Image).Data }},
		{name: "thinking signature", block: func(raw []byte) model.Content { return model.Thinking{Text: "hm", Signature: raw} },
			get: func(c model.Content) []byte { return c.(model.Thinking).Signature }},
		{name: "encrypted thinking", block: func(raw []byte) model.Content { return model.Thinking{Redacted: true, Encrypted: raw} },
			get: func(c model.Content) []byte { return c.(model.Thinking).Encrypted }},
		{name: "text signature", block: func(raw []byte) model.Content { return model.Text{Text: "ok", Signature: raw} },
			get: func(c model.Content) []byte { return c.(model.Text).Signature }},
		{name: "tool call signature", block: func(raw []byte) model.Content {
			return model.ToolCall{ID: "c1", Name: "bash", Arguments: []byte(`{}`), Signature: raw}
		}, get: func(c model.Content) []byte { return c.(model.ToolCall).Signature }},
	}
	for _, bl := range blocks {
		for _, tt := range tests {
			t.Run(bl.name+"/"+tt.name, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "s.session")
				f, err := sessionfmt.Create(path, nil)
				if err != nil {
					t.Fatal(err)
				}
				st, err := New(f)
				if err != nil {
					t.Fatal(err)
				}
				st.SetRedactor(set)
				// A secret in the text too, so the entry is decoded even
				// where the payload holds none.
				m := model.AssistantMessage{Content: []model.Content{model.Text{Text: "see " + tokValue}, bl.block(tt.raw)}, Stop: model.StopEnd}
				if err := st.Record(t.Context(), m); err != nil {
					t.Fatal(err)
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
				file, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if set.Contains(file) {
					t.Error("the session file holds the secret or an encoding of it")
				}
				f2, err := sessionfmt.Open(path, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer f2.Close()
				if _, err := New(f2); err != nil {
					t.Fatalf("the session does not reopen: %v", err)
				}
				msgs, err := Messages(f2.Session())
				if err != nil {
					t.Fatalf("the session does not decode: %v", err)
				}
				got := bl.get(msgs[0].(model.AssistantMessage).Content[1])
				if !bytes.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
					t.Errorf("payload read back %q, want %q", got, tt.want)
				}
			})
		}
	}
}

// TestRedactorRedactsKeys: an entry's Key, which no content redaction
// reaches, is redacted too.
func TestRedactorRedactsKeys(t *testing.T) {
	f, st := newStore(t)
	st.SetRedactor(tokSet(t))
	record(t, st, "a message to label")
	target := f.Session().ID(0)
	if err := st.RecordLabel(target, "deploy with "+tokValue); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordSecretRegistration(SecretRegistration{Name: "TOK", Source: "env TOK", Fingerprint: "00ff"}); err != nil {
		t.Fatal(err)
	}
	sess, _, err := sessionfmt.Load(f.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sess.Entry(1).Key, "deploy with "+tokRef; got != want {
		t.Errorf("label key %q, want %q", got, want)
	}
	if got := sess.Entry(2).Key; got != "TOK" {
		t.Errorf("registration key %q, want the name TOK as it was", got)
	}
	raw, err := os.ReadFile(f.Path())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(tokValue)) {
		t.Error("the session file holds the secret")
	}
}

// TestRedactMapKeysCollide: map keys that redact to the same text, or to
// a key the map already has, all survive with their values: a key the
// redaction leaves alone keeps its name, and the others, in the order of
// their original text, get the first of the suffixes "#2", "#3", … that is
// free and completes no secret.
func TestRedactMapKeysCollide(t *testing.T) {
	const other = "abcdefgh#2" // completes a secret when a key ending in "abcdefgh" gets "#2"
	var set secret.Set
	for _, s := range []secret.Secret{{Name: "TOK", Value: tokValue}, {Name: "OTHER", Value: other}} {
		if err := set.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	otherRef := secret.Reference("OTHER")
	b64 := base64.StdEncoding.EncodeToString([]byte(tokValue))
	tests := []struct {
		name     string
		in, want any
	}{
		{name: "a key already spelled as the reference", in: map[string]any{tokValue: 1, tokRef: 2},
			want: map[string]any{tokRef: 2, tokRef + "#2": 1}},
		{name: "plaintext and base64", in: map[string]any{"x" + tokValue: "plain", "x" + b64: "base64"},
			want: map[string]any{"x" + tokRef: "base64", "x" + tokRef + "#2": "plain"}}, // "xdG9r…" sorts before "xtok-…"
		{name: "three ways", in: map[string]any{tokValue: 1, b64: 2, tokRef: 3, tokRef + "#2": 4},
			want: map[string]any{tokRef: 3, tokRef + "#2": 4, tokRef + "#3": 2, tokRef + "#4": 1}},
		{name: "a suffix that would complete a secret", in: map[string]any{tokValue + "abcdefgh": 1, tokRef + "abcdefgh": 2},
			want: map[string]any{tokRef + "abcdefgh": 2, tokRef + otherRef: 1}},
		{name: "nested", in: map[string]any{"m": map[string]any{tokValue: []any{tokValue}, tokRef: nil}},
			want: map[string]any{"m": map[string]any{tokRef: nil, tokRef + "#2": []any{tokRef}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := sessionfmt.EncodeContent(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := redactContent(&set, in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := sessionfmt.EncodeContent(tt.want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				var g any
				_ = sessionfmt.DecodeContent(got, &g)
				t.Fatalf("redacted %v\nwant %v", g, tt.want)
			}
		})
	}
}

// TestRedactByteStringKeys: a map key that is a CBOR byte string is
// redacted like a text key, and stays a byte string.
func TestRedactByteStringKeys(t *testing.T) {
	bstr := func(s string) []byte { return append([]byte{0x40 | byte(len(s))}, s...) } // len < 24
	in := append(append([]byte{0xa1}, bstr(tokValue)...), 0x01)
	want := append(append([]byte{0xa1}, bstr(tokRef)...), 0x01)
	got, err := redactContent(tokSet(t), in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("redacted %x, want %x", got, want)
	}
}

// TestRedactPayloadOnlyInMessages: a base64 field is read as a payload
// only in a message's blocks; the same shape in another entry's content is
// redacted as text.
func TestRedactPayloadOnlyInMessages(t *testing.T) {
	set := tokSet(t)
	data := base64.StdEncoding.EncodeToString([]byte("\x00" + tokValue))
	content, err := sessionfmt.EncodeContent(map[string]any{"type": "image", "data": data})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		kind sessionfmt.Kind
		want func(string) bool
	}{
		{name: "message", kind: sessionfmt.KindMessage, want: func(s string) bool {
			raw, err := base64.StdEncoding.DecodeString(s)
			return err == nil && string(raw) == "\x00"+tokRef
		}},
		{name: "plugin state", kind: sessionfmt.KindPluginStateCommit, want: func(s string) bool { return strings.Contains(s, tokRef) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := sessionfmt.Entry{Kind: tt.kind, Content: content}
			if err := redactEntry(set, &e); err != nil {
				t.Fatal(err)
			}
			var v map[string]any
			if err := sessionfmt.DecodeContent(e.Content, &v); err != nil {
				t.Fatal(err)
			}
			if s, _ := v["data"].(string); !tt.want(s) {
				t.Errorf("data %q", s)
			}
			if !reflect.DeepEqual(v["type"], "image") {
				t.Errorf("type %v", v["type"])
			}
		})
	}
}

// TestRedactorKeepsToolArgumentsJSON: a tool call's arguments are JSON
// text, and a secret whose first byte is the letter of an escape
// (`\n` + the rest) or that the arguments hold only escaped (`\"`) is
// redacted without splitting the escape, so the arguments read back are
// still JSON.
func TestRedactorKeepsToolArgumentsJSON(t *testing.T) {
	var set secret.Set
	for _, sec := range []secret.Secret{{Name: "NKEY", Value: "nXYZ123456789"}, {Name: "QKEY", Value: `q"uoted-123456`}} {
		if err := set.Add(sec); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, args, want string
	}{
		{name: "newline escape before the secret's rest", args: `{"command":"printf 'a\nXYZ123456789'"}`, want: `{"command":"printf 'a\nXYZ123456789'"}`},
		{name: "escaped backslash, then the secret", args: `{"command":"echo \\nXYZ123456789"}`, want: `{"command":"echo \\${secret:NKEY}"}`},
		{name: "secret held escaped", args: `{"command":"echo q\"uoted-123456"}`, want: `{"command":"echo ${secret:QKEY}"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.session")
			f, err := sessionfmt.Create(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			st, err := New(f)
			if err != nil {
				t.Fatal(err)
			}
			st.SetRedactor(&set)
			m := model.AssistantMessage{Content: []model.Content{model.ToolCall{ID: "c1", Name: "bash", Arguments: []byte(tt.args)}}, Stop: model.StopToolUse}
			if err := st.Record(t.Context(), m); err != nil {
				t.Fatal(err)
			}
			msgs, err := Messages(f.Session())
			if err != nil {
				t.Fatal(err)
			}
			got := string(msgs[0].(model.AssistantMessage).Content[0].(model.ToolCall).Arguments)
			if got != tt.want {
				t.Errorf("arguments %s read back as %s, want %s", tt.args, got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("arguments %s read back as %s, which is not JSON", tt.args, got)
			}
			f.Close()
		})
	}
}
