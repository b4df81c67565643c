package secret

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchSecrets returns 20 API-key-like values of 32 to 100 bytes.
func benchSecrets() []Secret {
	r := rand.New(rand.NewPCG(7, 11))
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	const b64 = alnum + "+/"
	body := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	kinds := []func() string{
		func() string { return "sk-ant-api03-" + body(alnum+"-_", 87) },
		func() string { return "sk-proj-" + body(alnum+"-_", 48+r.IntN(40)) },
		func() string { return "ghp_" + body(alnum, 36) },
		func() string { return "github_pat_" + body(alnum+"_", 71) },
		func() string { return body(b64, 40) }, // an AWS secret access key
		func() string {
			return "xoxb-" + body("0123456789", 12) + "-" + body("0123456789", 13) + "-" + body(alnum, 24)
		},
		func() string { return "glpat-" + body(alnum+"-_", 26) },
		func() string { return "AIza" + body(alnum+"-_", 35) },
		func() string { return body("0123456789abcdef", 32+r.IntN(33)) },
	}
	var out []Secret
	for i := 0; i < 20; i++ {
		out = append(out, Secret{Name: fmt.Sprintf("KEY_%02d", i), Source: "bench", Value: kinds[i%len(kinds)]()})
	}
	return out
}

// benchBody returns a provider request of about 100 KB: messages with Go
// code, and with the given secrets in three of them (plaintext in code, in
// an HTTP Basic credential and JSON-escaped in a tool result).
func benchBody(secrets []Secret, withSecrets bool) []byte {
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	var msgs []message
	code := func(i int) string {
		return fmt.Sprintf("Here is the file internal/pkg%d/handler.go:\n\n```go\npackage pkg%d\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"net/http\"\n)\n\n// Handler%d serves /api/v%d/items.\nfunc Handler%d(ctx context.Context, w http.ResponseWriter, r *http.Request) error {\n\tid := r.URL.Query().Get(\"id\")\n\tif id == \"\" {\n\t\treturn fmt.Errorf(\"missing id: %%w\", ErrBadRequest)\n\t}\n\titem, err := store.Load(ctx, id)\n\tif err != nil {\n\t\treturn fmt.Errorf(\"load %%s: %%w\", id, err)\n\t}\n\treturn json.NewEncoder(w).Encode(map[string]any{\"item\": item, \"n\": %d})\n}\n```\n", i, i, i, i%5, i, i*37)
	}
	size := 0
	for i := 0; size < 100*1024; i++ {
		m := message{Role: "user", Content: code(i)}
		if i%2 == 1 {
			m.Role = "assistant"
			m.Content = fmt.Sprintf("I will change Handler%d to validate the id before loading it; <see> the test & the docs.", i)
		}
		msgs = append(msgs, m)
		size += len(m.Content) + 30
	}
	if withSecrets {
		n := len(msgs)
		msgs[n/4].Content += "\nclient := api.New(\"" + secrets[3].Value + "\")\n"
		msgs[n/2].Content += "\n$ curl -H 'Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("admin:"+secrets[11].Value)) + "' https://example.com\n"
		msgs[3*n/4].Content += "\n{\"token\": \"" + secrets[17].Value + "\"}\n"
	}
	b, err := json.Marshal(map[string]any{"model": "claude-sonnet", "max_tokens": 8192, "messages": msgs})
	if err != nil {
		panic(err)
	}
	return b
}

func benchSet(b testing.TB) *Set {
	var s Set
	for _, sec := range benchSecrets() {
		mustAdd(b, &s, sec)
	}
	return &s
}

func BenchmarkRedact100KB20Secrets(b *testing.B) {
	s := benchSet(b)
	for _, tt := range []struct {
		name    string
		secrets bool
		matches bool
	}{
		{name: "none", secrets: false},
		{name: "three", secrets: true, matches: true},
	} {
		body := benchBody(benchSecrets(), tt.secrets)
		b.Run(tt.name, func(b *testing.B) {
			if _, ok := s.Redact(body); ok != tt.matches {
				b.Fatalf("Redact matched: %v", ok)
			}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				s.Redact(body)
			}
		})
	}
}

func BenchmarkWriter100KB20Secrets(b *testing.B) {
	s := benchSet(b)
	for _, tt := range []struct {
		name    string
		secrets bool
	}{
		{name: "none", secrets: false},
		{name: "three", secrets: true},
	} {
		body := benchBody(benchSecrets(), tt.secrets)
		b.Run(tt.name+"/4KB writes", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				w := s.Writer(io.Discard)
				for rest := body; len(rest) > 0; {
					n := min(len(rest), 4096)
					w.Write(rest[:n])
					rest = rest[n:]
				}
				w.Close()
			}
		})
	}
}

// BenchmarkNaive is the scheme the matcher replaces, for comparison: one
// strings.Contains per pattern.
func BenchmarkNaive100KB20Secrets(b *testing.B) {
	s := benchSet(b)
	body := string(benchBody(benchSecrets(), false))
	pats := s.load().pats
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		for _, p := range pats {
			if strings.Contains(body, p) {
				b.Fatal("match")
			}
		}
	}
}

// BenchmarkAdd20 registers 20 secrets, then redacts a short text, which
// builds the matcher's index.
func BenchmarkAdd20(b *testing.B) {
	secrets := benchSecrets()
	b.ReportAllocs()
	for b.Loop() {
		var s Set
		for _, sec := range secrets {
			mustAdd(b, &s, sec)
		}
		s.RedactString("a short text to redact")
	}
}

// BenchmarkStreamDeltas20Secrets redacts 100 KB of text arriving as
// 16-byte deltas (a model's streamed answer), as the provider bridge does.
func BenchmarkStreamDeltas20Secrets(b *testing.B) {
	s := benchSet(b)
	body := benchBody(benchSecrets(), true)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		st := s.Stream()
		for i := 0; i < len(body); i += 16 {
			st.Next(body[i:min(i+16, len(body))])
		}
		st.Flush()
	}
}
