package secret

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"
)

// slowEncodings is the test's own account of every encoding of v that
// Redact must leave nothing of. The base64 characters that depend on v
// alone are found by encoding v between neighbours of all zero and all one
// bits and keeping the characters the four encodings agree on.
func slowEncodings(v string) []string {
	lower := regexp.MustCompile(`%[0-9A-F]{2}`)
	lowerHex := func(s string) string { return lower.ReplaceAllStringFunc(s, strings.ToLower) }
	jsonHTML, _ := json.Marshal(v)
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	jsonPlain := strings.TrimSpace(b.String())
	out := []string{v, hex.EncodeToString([]byte(v)), strings.ToUpper(hex.EncodeToString([]byte(v)))}
	for _, j := range []string{string(jsonHTML), jsonPlain} {
		j = j[1 : len(j)-1]
		for _, s := range []string{j, strings.ReplaceAll(j, "/", `\/`)} {
			out = append(out, s, escapeNonASCII(s))
		}
	}
	for _, e := range []string{url.QueryEscape(v), url.PathEscape(v)} {
		out = append(out, e, lowerHex(e))
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		out = append(out, enc.EncodeToString([]byte(v)))
		for k := 0; k < 3; k++ {
			var encs []string
			for _, pre := range []byte{0, 0xff} {
				for _, suf := range []byte{0, 0xff} {
					d := strings.Repeat(string([]byte{pre}), k) + v + string([]byte{suf, suf})
					encs = append(encs, enc.EncodeToString([]byte(d)))
				}
			}
			var run strings.Builder
			for i := range encs[0] {
				if encs[0][i] == encs[1][i] && encs[0][i] == encs[2][i] && encs[0][i] == encs[3][i] {
					run.WriteByte(encs[0][i])
				} else if run.Len() > 0 {
					break
				}
			}
			out = append(out, run.String())
		}
	}
	return out
}

func escapeNonASCII(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
			continue
		}
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&b, `\u%04x`, u)
		}
	}
	return b.String()
}

const secretAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=-_.~!@#$%^&*()[]{}<>\"'\\ :;,?"

var nonASCII = []string{"é", "€", "😀", "ß", "\u2028"}

func randomValue(r *rand.Rand) string {
	n := 8 + r.IntN(50)
	var b strings.Builder
	for b.Len() < n {
		if r.IntN(20) == 0 {
			b.WriteString(nonASCII[r.IntN(len(nonASCII))])
		} else {
			b.WriteByte(secretAlphabet[r.IntN(len(secretAlphabet))])
		}
	}
	return b.String()
}

func randomJunk(r *rand.Rand, n int) string {
	const junk = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \n\t{}[]\":,./+=-_%\\$"
	b := make([]byte, n)
	for i := range b {
		b[i] = junk[r.IntN(len(junk))]
	}
	return string(b)
}

// embed returns v in one of the encodings Redact covers, in a random
// context.
func embed(r *rand.Rand, v string) string {
	encs := []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding}
	switch r.IntN(9) {
	case 0:
		return v
	case 1:
		b, _ := json.Marshal(map[string]string{"content": randomJunk(r, r.IntN(5)) + v + randomJunk(r, r.IntN(5))})
		return string(b)
	case 2:
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode([]string{v})
		return b.String()
	case 3:
		pre, suf := randomJunk(r, r.IntN(7)), randomJunk(r, r.IntN(7))
		return encs[r.IntN(len(encs))].EncodeToString([]byte(pre + v + suf))
	case 4:
		return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+v))
	case 5:
		return "https://h/p?" + url.Values{"k": {v}}.Encode()
	case 6:
		return "/files/" + url.PathEscape(v) + "/x"
	case 7:
		h := hex.EncodeToString([]byte(v))
		if r.IntN(2) == 0 {
			h = strings.ToUpper(h)
		}
		return h
	default:
		return strings.ReplaceAll(string(must(json.Marshal(v))), "/", `\/`)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestRedactProperty checks, for random secrets and random buffers holding
// them in random encodings, that the redacted output holds no encoding of
// any secret, that redacting it again changes nothing and that a Writer
// fed the buffer in random pieces writes the same.
func TestRedactProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	refused := 0
	for round := 0; round < rounds; round++ {
		var s Set
		var values []string
		for i := 0; i < 1+r.IntN(6); i++ {
			v := randomValue(r)
			if err := s.Add(Secret{Name: fmt.Sprintf("S%d", i), Value: v}); err != nil {
				refused++
				continue
			}
			values = append(values, v)
		}
		if len(values) == 0 {
			continue
		}
		var in strings.Builder
		for i := 0; i < 1+r.IntN(8); i++ {
			in.WriteString(randomJunk(r, r.IntN(40)))
			in.WriteString(embed(r, values[r.IntN(len(values))]))
		}
		in.WriteString(randomJunk(r, r.IntN(40)))
		out, _ := s.Redact([]byte(in.String()))
		for _, v := range values {
			for _, e := range slowEncodings(v) {
				if strings.Contains(string(out), e) {
					t.Fatalf("round %d: output %q holds encoding %q of %q (input %q)", round, out, e, v, in.String())
				}
			}
		}
		if again, ok := s.Redact(out); ok || string(again) != string(out) {
			t.Fatalf("round %d: redacting %q again gave %q", round, out, again)
		}
		var w strings.Builder
		wc := s.Writer(&w)
		for rest := in.String(); rest != ""; {
			n := min(len(rest), r.IntN(60))
			wc.Write([]byte(rest[:n]))
			rest = rest[n:]
		}
		wc.Close()
		if w.String() != string(out) {
			t.Fatalf("round %d: Writer wrote %q, Redact %q", round, w.String(), out)
		}
	}
	t.Logf("%d random values refused for overlapping a reference", refused)
}

// TestSlowEncodingsAgree checks that the test's own account of the base64
// forms and the package's are the same, so that the property test is not
// weaker than it looks.
func TestSlowEncodingsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		v := randomValue(r)
		forms := map[string]bool{}
		for _, f := range encodings(v) {
			forms[f] = true
		}
		for _, e := range slowEncodings(v) {
			if !forms[e] {
				t.Fatalf("value %q: encoding %q is not a pattern", v, e)
			}
		}
	}
}
