package secret

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Values for the encoding tests: an API key, and a password with the
// characters JSON, percent-encoding and base64 treat specially.
const (
	apiKey   = "sk-ant-api03-Xy7Qp2Lm9Nw4Rt6Vb8Cd0Fg1Hj3Kl5"
	password = `p@ss/w<o>rd&"q"+x=y é~`
)

func newTestSet(t testing.TB, secrets ...Secret) *Set {
	t.Helper()
	s := new(Set)
	for _, sec := range secrets {
		mustAdd(t, s, sec)
	}
	return s
}

func jsonBody(v string, html bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	enc.Encode(v)
	s := strings.TrimSuffix(b.String(), "\n")
	return s[1 : len(s)-1]
}

func lowerEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			b.WriteString("%" + strings.ToLower(s[i+1:i+3]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// inBlob returns the encoding of pre+v+suf with the characters that depend
// on v alone replaced by ref: the expected redaction of v inside a blob.
func inBlob(enc *base64.Encoding, pre, v, suf, ref string) (blob, want string) {
	blob = enc.EncodeToString([]byte(pre + v + suf))
	first := (8*len(pre) + 5) / 6
	end := 8 * (len(pre) + len(v)) / 6
	// The last character, which mixes v's bits with zeros where the blob
	// ends, is replaced too where the suffix starts with those zero bits.
	if tail := enc.WithPadding(base64.NoPadding).EncodeToString([]byte(pre + v))[first:]; strings.HasPrefix(blob[first:], tail) {
		end = first + len(tail)
	}
	if suf == "" {
		end = len(blob)
	}
	return blob, blob[:first] + ref + blob[end:]
}

func TestRedactEncodings(t *testing.T) {
	s := newTestSet(t,
		Secret{Name: "API_KEY", Source: "env API_KEY", Value: apiKey},
		Secret{Name: "DB_PASSWORD", Source: "smith secret add", Value: password},
	)
	type tc struct {
		name, in, want string
	}
	var tests []tc
	for _, sec := range []struct{ name, v string }{{"API_KEY", apiKey}, {"DB_PASSWORD", password}} {
		ref := Reference(sec.name)
		v := sec.v
		add := func(name, enc string) {
			tests = append(tests, tc{sec.name + " " + name, "before " + enc + " after", "before " + ref + " after"})
		}
		add("plaintext", v)
		add("json", jsonBody(v, true))
		add("json without html escaping", jsonBody(v, false))
		add("json with escaped slash", strings.ReplaceAll(jsonBody(v, false), "/", `\/`))
		add("json ascii", strings.ReplaceAll(jsonBody(v, true), "é", `\u00e9`))
		add("query escape", url.QueryEscape(v))
		add("query escape lower", lowerEscapes(url.QueryEscape(v)))
		add("path escape", url.PathEscape(v))
		add("path escape lower", lowerEscapes(url.PathEscape(v)))
		add("hex", hex.EncodeToString([]byte(v)))
		add("hex upper", strings.ToUpper(hex.EncodeToString([]byte(v))))
		encs := []struct {
			name string
			enc  *base64.Encoding
		}{
			{"std", base64.StdEncoding}, {"std raw", base64.RawStdEncoding},
			{"url", base64.URLEncoding}, {"url raw", base64.RawURLEncoding},
		}
		for _, e := range encs {
			add("base64 "+e.name, e.enc.EncodeToString([]byte(v)))
			for _, pre := range []string{"", "u", "us", "use", "user", "user:", "0123456"} {
				for _, suf := range []string{"", "!", "!?", "!?#", "trailer"} {
					blob, want := inBlob(e.enc, pre, v, suf, ref)
					tests = append(tests, tc{
						fmt.Sprintf("%s base64 %s blob %d+%d", sec.name, e.name, len(pre), len(suf)),
						`{"tok":"` + blob + `"}`, `{"tok":"` + want + `"}`,
					})
				}
			}
			blob, want := inBlob(e.enc, "user:", v, "", ref)
			tests = append(tests, tc{sec.name + " basic auth " + e.name, "Authorization: Basic " + blob + "\r\n", "Authorization: Basic " + want + "\r\n"})
		}
		b, _ := json.Marshal(map[string]string{"cmd": "curl -H 'x-api-key: " + v + "'"})
		tests = append(tests, tc{sec.name + " json document", string(b), `{"cmd":"curl -H 'x-api-key: ` + ref + `'"}`})
		q := url.Values{"key": {v}, "a": {"b"}}.Encode()
		tests = append(tests, tc{sec.name + " query string", q, "a=b&key=" + ref})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := s.Redact([]byte(tt.in))
			if string(got) != tt.want || !ok {
				t.Errorf("Redact(%q)\n = %q, %v\nwant %q", tt.in, got, ok, tt.want)
			}
			if got := s.RedactString(tt.in); got != tt.want {
				t.Errorf("RedactString = %q", got)
			}
			if !s.Contains([]byte(tt.in)) {
				t.Error("Contains = false")
			}
		})
	}
}

func TestRedactNoFalsePositive(t *testing.T) {
	s := newTestSet(t, Secret{Name: "API_KEY", Value: apiKey}, Secret{Name: "DB_PASSWORD", Value: password})
	changed := []byte(apiKey)
	changed[20] ^= 1
	b64 := base64.StdEncoding.EncodeToString([]byte(apiKey))
	hx := []byte(hex.EncodeToString([]byte(apiKey)))
	hx[30] = 'f'
	tests := []struct{ name, in string }{
		{name: "empty", in: ""},
		{name: "short", in: "sk-"},
		{name: "one byte changed", in: "key " + string(changed)},
		{name: "truncated", in: apiKey[:len(apiKey)-1]},
		{name: "missing first byte", in: apiKey[1:]},
		{name: "same prefix", in: "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
		{name: "case changed", in: strings.ToUpper(apiKey)},
		{name: "split by a space", in: apiKey[:10] + " " + apiKey[10:]},
		{name: "base64 of a truncated key", in: base64.StdEncoding.EncodeToString([]byte(apiKey[:len(apiKey)-3]))},
		{name: "base64 with a character changed", in: b64[:12] + "A" + b64[13:]},
		{name: "hex with a digit changed", in: string(hx)},
		{name: "password without its tail", in: password[:len(password)-3]},
		{name: "code", in: "func main() {\n\tfmt.Println(\"hello, world\")\n}\n"},
		{name: "reference text", in: "use ${secret:API_KEY} and ${secret:DB_PASSWORD}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := s.Redact([]byte(tt.in))
			if ok || string(got) != tt.in {
				t.Errorf("Redact(%q) = %q, %v", tt.in, got, ok)
			}
			if s.Contains([]byte(tt.in)) {
				t.Error("Contains = true")
			}
		})
	}
}

func TestRedactOverlapping(t *testing.T) {
	s := newTestSet(t,
		Secret{Name: "SHORT", Value: "abcdefgh12"},
		Secret{Name: "LONG", Value: "abcdefgh1234567"},
		Secret{Name: "LEFT", Value: "0123456789"},
		Secret{Name: "RIGHT", Value: "56789vwxyz"},
	)
	tests := []struct{ name, in, want string }{
		{name: "longer wins", in: "x abcdefgh1234567 y", want: "x ${secret:LONG} y"},
		{name: "prefix alone", in: "x abcdefgh12345 y", want: "x ${secret:SHORT}345 y"},
		{name: "both", in: "abcdefgh12abcdefgh1234567", want: "${secret:SHORT}${secret:LONG}"},
		{name: "leftmost wins", in: "0123456789vwxyz", want: "${secret:LEFT}vwxyz"},
		{name: "right alone", in: "x56789vwxyz", want: "x${secret:RIGHT}"},
		{name: "adjacent", in: "012345678956789vwxyz", want: "${secret:LEFT}${secret:RIGHT}"},
		{name: "repeated", in: strings.Repeat("abcdefgh12", 3), want: strings.Repeat("${secret:SHORT}", 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.RedactString(tt.in); got != tt.want {
				t.Errorf("RedactString(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactBufferEdges(t *testing.T) {
	const v = "abcdefgh" // MinLen bytes: the smallest sampling step
	s := newTestSet(t, Secret{Name: "K", Value: v}, Secret{Name: "API_KEY", Value: apiKey})
	var tests []struct{ name, in, want string }
	for _, sec := range []struct{ name, v string }{{"K", v}, {"API_KEY", apiKey}} {
		ref := Reference(sec.name)
		for _, c := range []struct{ name, pre, suf string }{
			{"whole buffer", "", ""},
			{"at start", "", "tail"},
			{"at end", "head", ""},
			{"twice", sec.v, ""},
		} {
			want := ref
			if c.pre == sec.v {
				want = ref + ref
			} else {
				want = c.pre + ref + c.suf
			}
			tests = append(tests, struct{ name, in, want string }{sec.name + " " + c.name, c.pre + sec.v + c.suf, want})
		}
		// At every offset of buffers of a few lengths.
		for n := len(sec.v); n < len(sec.v)+40; n += 7 {
			for at := 0; at+len(sec.v) <= n; at++ {
				in := strings.Repeat(".", at) + sec.v + strings.Repeat(".", n-at-len(sec.v))
				want := strings.Repeat(".", at) + ref + strings.Repeat(".", n-at-len(sec.v))
				tests = append(tests, struct{ name, in, want string }{fmt.Sprintf("%s at %d of %d", sec.name, at, n), in, want})
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.RedactString(tt.in); got != tt.want {
				t.Errorf("RedactString(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactDoesNotAllocate(t *testing.T) {
	s := newTestSet(t, Secret{Name: "API_KEY", Value: apiKey}, Secret{Name: "DB_PASSWORD", Value: password})
	body := []byte(strings.Repeat(`{"role":"user","content":"func f() { return 42 }"},`, 200))
	str := string(body)
	var empty Set
	tests := []struct {
		name string
		f    func()
	}{
		{name: "Redact", f: func() { s.Redact(body) }},
		{name: "RedactString", f: func() { s.RedactString(str) }},
		{name: "Contains", f: func() { s.Contains(body) }},
		{name: "empty Set", f: func() { empty.Redact(body) }},
		{name: "Restore without references", f: func() { s.Restore(str, AllowAll) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, tt.f); n != 0 {
				t.Errorf("%v allocations", n)
			}
		})
	}
	if out, ok := s.Redact(body); !ok && &out[0] != &body[0] {
		t.Error("Redact returned a copy")
	}
}

func TestRestore(t *testing.T) {
	s := newTestSet(t, Secret{Name: "A", Value: "value-of-a"}, Secret{Name: "B.b-2", Value: "value-of-b"})
	onlyA := func(name string) bool { return name == "A" }
	tests := []struct {
		name      string
		in        string
		allow     func(string) bool
		want      string
		wantNames []string
	}{
		{name: "nil allow", in: "x=${secret:A}", allow: nil, want: "x=${secret:A}"},
		{name: "allow all", in: "x=${secret:A} y=${secret:B.b-2}", allow: AllowAll, want: "x=value-of-a y=value-of-b", wantNames: []string{"A", "B.b-2"}},
		{name: "allow one", in: "x=${secret:A} y=${secret:B.b-2}", allow: onlyA, want: "x=value-of-a y=${secret:B.b-2}", wantNames: []string{"A"}},
		{name: "none allowed", in: "${secret:B.b-2}", allow: onlyA, want: "${secret:B.b-2}"},
		{name: "unknown", in: "${secret:C} ${secret:a}", allow: AllowAll, want: "${secret:C} ${secret:a}"},
		{name: "sorted unique", in: "${secret:B.b-2}${secret:A}${secret:B.b-2}", allow: AllowAll, want: "value-of-bvalue-of-avalue-of-b", wantNames: []string{"A", "B.b-2"}},
		{name: "unterminated", in: "${secret:A", allow: AllowAll, want: "${secret:A"},
		{name: "empty name", in: "${secret:}", allow: AllowAll, want: "${secret:}"},
		{name: "nested", in: "${secret:${secret:A}}", allow: AllowAll, want: "${secret:value-of-a}", wantNames: []string{"A"}},
		{name: "other syntax", in: "$A ${A} $secret:A ${secret: A}", allow: AllowAll, want: "$A ${A} $secret:A ${secret: A}"},
		{name: "whole string", in: "${secret:A}", allow: AllowAll, want: "value-of-a", wantNames: []string{"A"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, names := s.Restore(tt.in, tt.allow)
			if got != tt.want || !slices.Equal(names, tt.wantNames) {
				t.Errorf("Restore(%q) = %q, %q; want %q, %q", tt.in, got, names, tt.want, tt.wantNames)
			}
		})
	}
	var empty Set
	if got, names := empty.Restore("${secret:A}", AllowAll); got != "${secret:A}" || names != nil {
		t.Errorf("empty Set: %q %v", got, names)
	}
}

func TestRedactRestoreRoundTrip(t *testing.T) {
	s := newTestSet(t, Secret{Name: "API_KEY", Value: apiKey}, Secret{Name: "DB_PASSWORD", Value: password})
	cmd := "curl -H 'x-api-key: " + apiKey + "' -u admin:" + password + " https://example.com"
	red := s.RedactString(cmd)
	if strings.Contains(red, apiKey) || strings.Contains(red, password) {
		t.Fatalf("RedactString = %q", red)
	}
	got, names := s.Restore(red, AllowAll)
	if got != cmd || !slices.Equal(names, []string{"API_KEY", "DB_PASSWORD"}) {
		t.Errorf("Restore = %q %v", got, names)
	}
}

func TestEnvFilter(t *testing.T) {
	s := newTestSet(t, Secret{Name: "API_KEY", Value: apiKey}, Secret{Name: "DB_PASSWORD", Value: password})
	env := []string{
		"HOME=/home/u",
		"ANTHROPIC_API_KEY=" + apiKey,
		"AUTH_HEADER=Bearer " + apiKey,
		"BASIC=" + base64.StdEncoding.EncodeToString([]byte("admin:"+password)),
		"DATABASE_URL=postgres://admin:" + url.QueryEscape(password) + "@db/x",
		"PATH=/usr/bin:/bin",
		"NOEQUALS",
		"SIMILAR=" + apiKey[:len(apiKey)-1],
	}
	orig := slices.Clone(env)
	tests := []struct {
		name string
		set  *Set
		want []string
	}{
		{name: "filtered", set: s, want: []string{"HOME=/home/u", "PATH=/usr/bin:/bin", "NOEQUALS", "SIMILAR=" + apiKey[:len(apiKey)-1]}},
		{name: "empty set", set: new(Set), want: env},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.set.EnvFilter(env)
			if !slices.Equal(got, tt.want) {
				t.Errorf("EnvFilter = %q, want %q", got, tt.want)
			}
			if !slices.Equal(env, orig) {
				t.Error("EnvFilter changed its argument")
			}
			if len(got) > 0 && &got[0] == &env[0] {
				t.Error("EnvFilter did not copy")
			}
		})
	}
}

// TestConcurrentAdd runs Add concurrently with Redact, Restore and Writer
// (run it with -race): every reader sees the secrets added before it
// started.
func TestConcurrentAdd(t *testing.T) {
	var s Set
	mustAdd(t, &s, Secret{Name: "FIRST", Value: apiKey})
	in := "key=" + apiKey + " b64=" + base64.StdEncoding.EncodeToString([]byte("u:"+apiKey))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				out := s.RedactString(in)
				if strings.Contains(out, apiKey) || !strings.HasPrefix(out, "key=${secret:FIRST} ") {
					t.Errorf("RedactString = %q", out)
					return
				}
				if got, _ := s.Restore("${secret:FIRST}", AllowAll); got != apiKey {
					t.Errorf("Restore = %q", got)
					return
				}
				_ = s.Names()
				_ = s.EnvFilter([]string{"K=" + apiKey})
				w := s.Writer(discard{})
				w.Write([]byte(in))
				w.Close()
			}
		}()
	}
	for i := 0; i < 100; i++ {
		mustAdd(t, &s, Secret{Name: fmt.Sprintf("S%03d", i), Value: fmt.Sprintf("concurrent-secret-%03d-xyz", i)})
	}
	close(stop)
	wg.Wait()
	if s.Len() != 101 {
		t.Errorf("Len = %d", s.Len())
	}
	if got := s.RedactString("concurrent-secret-042-xyz"); got != "${secret:S042}" {
		t.Errorf("RedactString = %q", got)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
