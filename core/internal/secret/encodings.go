package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
	"unicode/utf8"
)

// encodings returns the byte strings Redact replaces for a value: the
// plaintext first, then its JSON-escaped, percent-encoded, hex and base64
// forms, without duplicates.
func encodings(v string) []string {
	var out []string
	seen := make(map[string]bool)
	add := func(forms ...string) {
		for _, f := range forms {
			if f != "" && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	add(v)
	add(jsonForms(v)...)
	q, p := url.QueryEscape(v), url.PathEscape(v)
	add(q, lowerPercent(q), p, lowerPercent(p))
	h := hex.EncodeToString([]byte(v))
	add(h, strings.ToUpper(h))
	add(base64Forms(base64.StdEncoding, base64.RawStdEncoding, v)...)
	add(base64Forms(base64.URLEncoding, base64.RawURLEncoding, v)...)
	return out
}

// jsonForms returns v as it appears inside a JSON string: encoding/json's
// forms with and without HTML escaping (\u003c for '<'), each also with '/'
// escaped as \/ (as PHP and some Java encoders write it) and with every
// non-ASCII character escaped as \uXXXX (as Python's json.dumps does).
func jsonForms(v string) []string {
	html, _ := json.Marshal(v)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	plain := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	var out []string
	for _, b := range [][]byte{html, plain} {
		s := string(b[1 : len(b)-1])
		slash := strings.ReplaceAll(s, "/", `\/`)
		out = append(out, s, slash, asciiJSON(s), asciiJSON(slash))
	}
	return out
}

// asciiJSON escapes every non-ASCII character of the JSON string body s as
// \uXXXX, with a surrogate pair beyond the Basic Multilingual Plane.
func asciiJSON(s string) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	u := func(r rune) {
		b.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			b.WriteByte(digits[r>>shift&0xf])
		}
	}
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		case r > 0xffff:
			r -= 0x10000
			u(0xd800 + r>>10)
			u(0xdc00 + r&0x3ff)
		default:
			u(r)
		}
	}
	return b.String()
}

// lowerPercent returns s with the hex digits of its %XX escapes in lower
// case.
func lowerPercent(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1] = lowerHex(b[i+1])
			b[i+2] = lowerHex(b[i+2])
			i += 2
		}
	}
	return string(b)
}

func lowerHex(c byte) byte {
	if c >= 'A' && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

// base64Forms returns the base64 forms of v under one alphabet. A value
// inside a longer encoded blob starts at byte offset k ≡ 0, 1 or 2 (mod 3)
// of it; for each k this encodes k zero bytes followed by v and keeps
//
//   - the characters that depend on v's bytes alone, which occur wherever
//     v sits in a longer blob at that alignment;
//   - those characters through the end of the raw and of the padded
//     encoding, which occur when v ends the blob, so that the last, partial
//     character and the padding are replaced too (the longest match wins).
//
// At k = 0 the latter two are the plain raw and padded encodings of v.
func base64Forms(padded, raw *base64.Encoding, v string) []string {
	var out []string
	data := make([]byte, 2+len(v))
	for k := 0; k < 3; k++ {
		d := data[:k+len(v)]
		copy(d[k:], v)
		r, p := raw.EncodeToString(d), padded.EncodeToString(d)
		first := (8*k + 5) / 6 // the first character without prefix bits
		end := 8 * len(d) / 6  // the characters before it have no suffix bits
		out = append(out, r[first:end], r[first:], p[first:])
	}
	return out
}
