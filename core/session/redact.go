package session

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/smith-agent/smith/sessionfmt"
)

// Redactor keeps secrets out of what a [Store] writes: Contains reports
// whether b holds one (its plaintext or an encoding of it), Redact returns
// b with each replaced by its reference and whether it changed anything.
// It must be safe for concurrent use.
type Redactor interface {
	Contains(b []byte) bool
	Redact(b []byte) ([]byte, bool)
}

// SetRedactor makes s redact every entry it appends from now on — its key
// and the strings and byte strings of its content, after the record is
// made and before it is written — so a secret a tool printed, a file held
// or a server echoed reaches the session file as a reference. nil turns it
// off. It is safe for concurrent use.
func (s *Store) SetRedactor(r Redactor) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.redactor = r
}

// redactEntry redacts e's Key and Content with r; a nil r leaves them.
func redactEntry(r Redactor, e *sessionfmt.Entry) error {
	if r == nil {
		return nil
	}
	if e.Key != "" && r.Contains([]byte(e.Key)) {
		e.Key = redactText(r, e.Key)
	}
	content, err := redaction{r: r, message: e.Kind == sessionfmt.KindMessage}.content(e.Content)
	if err != nil {
		return err
	}
	e.Content = content
	return nil
}

// redactContent returns content, not a message's, with every string and
// byte string r changes replaced; content holding no secret is returned
// as is, without decoding it.
func redactContent(r Redactor, content []byte) ([]byte, error) {
	return redaction{r: r}.content(content)
}

// redaction redacts the content of one entry.
type redaction struct {
	r Redactor
	// message is set for a message's content, whose blocks' base64
	// fields are redacted as the bytes they encode (see payload).
	message bool
}

func (x redaction) content(content []byte) ([]byte, error) {
	if x.r == nil || !x.r.Contains(content) {
		return content, nil
	}
	var v any
	if err := sessionfmt.DecodeContent(content, &v); err != nil {
		return nil, fmt.Errorf("session: redact an entry: %w", err)
	}
	out, err := sessionfmt.EncodeContent(x.value(v))
	if err != nil {
		return nil, fmt.Errorf("session: redact an entry: %w", err)
	}
	return out, nil
}

// value redacts the strings and byte strings of v, a value as
// sessionfmt.DecodeContent returns it, map keys included.
func (x redaction) value(v any) any {
	switch v := v.(type) {
	case string:
		return redactText(x.r, v)
	case []byte:
		if b, ok := x.r.Redact(v); ok {
			return b
		}
	case []any:
		for i := range v {
			v[i] = x.value(v[i])
		}
	case map[any]any:
		return x.mapValue(v)
	}
	return v
}

// redactText returns s redacted. A secret that is not valid UTF-8 can
// match from inside a character, leaving part of it behind; a text string
// must stay valid UTF-8 or the entry cannot be decoded again.
func redactText(r Redactor, s string) string {
	if b, ok := r.Redact([]byte(s)); ok {
		return jsonString(string(b))
	}
	return s
}

// mapValue redacts m's keys and values. Two keys can redact to the same
// text ("x" and a secret, "x" and its base64) or to a key m has already,
// and none of their values may be lost: a key the redaction leaves as it
// is keeps its name, and the changed ones, in the order of their original
// text, take the first free name of key, key#2, key#3, … (see freeKey).
func (x redaction) mapValue(m map[any]any) map[any]any {
	payloads := x.payloads(m)
	out := make(map[any]any, len(m))
	type renamed struct{ from, to, v any }
	var moved []renamed
	for k, v := range m {
		if ks, ok := k.(string); ok && slices.Contains(payloads, ks) {
			v = x.payload(v)
		} else if ok && x.jsonField(m, ks) {
			v = x.jsonText(v)
		} else {
			v = x.value(v)
		}
		if nk, changed := x.key(k); changed {
			moved = append(moved, renamed{k, nk, v})
		} else {
			out[k] = v
		}
	}
	slices.SortFunc(moved, func(a, b renamed) int {
		return cmp.Compare(reflect.ValueOf(a.from).String(), reflect.ValueOf(b.from).String())
	})
	for _, mv := range moved {
		out[x.freeKey(out, mv.to)] = mv.v
	}
	return out
}

// key returns k redacted and whether that changed it. A text key is
// redacted as text, a byte string key (decoded as a string type of the
// CBOR package) as bytes, keeping its type; other keys stay as they are.
func (x redaction) key(k any) (any, bool) {
	if s, ok := k.(string); ok {
		r := redactText(x.r, s)
		return r, r != s
	}
	v := reflect.ValueOf(k)
	if v.Kind() != reflect.String {
		return k, false
	}
	b, ok := x.r.Redact([]byte(v.String()))
	if !ok {
		return k, false
	}
	return reflect.ValueOf(string(b)).Convert(v.Type()).Interface(), true
}

// freeKey returns k, a redacted key, if out has no such key, or else the
// first of k#2, k#3, … that out lacks, each redacted in turn since its
// suffix can complete a secret k ends with the beginning of. The loop
// ends: out has finitely many keys, and the redaction of k#n grows with n
// (a reference is longer than the at most maxLen bytes it replaces).
func (x redaction) freeKey(out map[any]any, k any) any {
	if _, taken := out[k]; !taken {
		return k
	}
	v := reflect.ValueOf(k)
	for n := 2; ; n++ {
		c := reflect.ValueOf(v.String() + "#" + strconv.Itoa(n)).Convert(v.Type()).Interface()
		c, _ = x.key(c)
		if _, taken := out[c]; !taken {
			return c
		}
	}
}

// JSONRedactor is implemented by a [Redactor] that can redact JSON text
// without splitting its escape sequences, so that valid JSON stays valid
// (secret.Set does). A tool call's arguments, kept as JSON text, are
// redacted with it when the Redactor has it.
type JSONRedactor interface {
	RedactJSON(b []byte) ([]byte, bool)
}

// jsonField reports whether field k of m is JSON text: a tool call's
// arguments in a message's block.
func (x redaction) jsonField(m map[any]any, k string) bool {
	if !x.message || k != "arguments" {
		return false
	}
	t, _ := m["type"].(string)
	return t == "tool_call"
}

// jsonText redacts v, JSON text, with the Redactor's RedactJSON, so that
// a secret next to an escape (the "n" of \n) does not leave `\${secret:…}`
// that no parser accepts; a Redactor without it redacts v as text.
func (x redaction) jsonText(v any) any {
	s, ok := v.(string)
	jr, isJSON := x.r.(JSONRedactor)
	if !ok || !isJSON {
		return x.value(v)
	}
	if b, ok := jr.RedactJSON([]byte(s)); ok {
		return jsonString(string(b))
	}
	return s
}

// payloadFields names the base64 fields of each type of message block,
// those messageFrom decodes with fields.bytes.
var payloadFields = map[string][]string{
	"text":      {"signature"},
	"thinking":  {"signature", "encrypted"},
	"image":     {"data"},
	"tool_call": {"signature"},
}

// payloads returns the base64 fields of m when m is a message's block.
func (x redaction) payloads(m map[any]any) []string {
	if !x.message {
		return nil
	}
	t, _ := m["type"].(string)
	return payloadFields[t]
}

// payload redacts v, a base64 field of a message block: an image's data, a
// signature, encrypted reasoning. A reference written into its text would
// make the field invalid base64 and the session unreadable, so the bytes
// it encodes are redacted and encoded again: the field stays base64, its
// bytes hold the reference where they held a secret or an encoding of one.
// Should the new text still hold an encoding of a secret — bytes that
// differ from a secret only in the few bits base64 mixes with their
// neighbours', or a secret spelled in base64's alphabet — no redaction of
// the bytes can remove it, and the payload, which cannot be a real image
// or signature, is dropped: the field becomes empty. A field that is not
// base64 is redacted as text.
func (x redaction) payload(v any) any {
	s, ok := v.(string)
	if !ok {
		return x.value(v)
	}
	if !x.r.Contains([]byte(s)) {
		return s
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return redactText(x.r, s)
	}
	if b, ok := x.r.Redact(raw); ok {
		s = base64.StdEncoding.EncodeToString(b)
	}
	if x.r.Contains([]byte(s)) {
		return ""
	}
	return s
}
