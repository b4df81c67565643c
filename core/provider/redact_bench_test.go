package provider

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/internal/secret"
)

// benchKeys returns 20 API-key-like values of 36 to 100 bytes.
func benchKeys() []secret.Secret {
	r := rand.New(rand.NewPCG(3, 5))
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	body := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alnum[r.IntN(len(alnum))]
		}
		return string(b)
	}
	prefixes := []string{"sk-ant-api03-", "sk-proj-", "ghp_", "github_pat_", "xoxb-", "glpat-", "AIza", ""}
	out := make([]secret.Secret, 20)
	for i := range out {
		out[i] = secret.Secret{Name: fmt.Sprintf("KEY_%02d", i), Source: "bench", Value: prefixes[i%len(prefixes)] + body(32+r.IntN(60))}
	}
	return out
}

// benchRequest returns a request template like a codec's for a chat
// request of 100 KB: messages holding Go code, and, with secrets,
// three of them in the body (plaintext in a file, an HTTP Basic credential
// in base64, JSON-escaped in a tool result); the key is a header secret.
func benchRequest(keys []secret.Secret, withSecrets bool) pluginabi.RequestTemplate {
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	var msgs []message
	for i, size := 0, 0; size < 100<<10; i++ {
		msgs = append(msgs, message{Role: "user", Content: fmt.Sprintf("Here is internal/pkg%d/handler.go:\n\n```go\npackage pkg%d\n\n"+
			"// Handler%d serves /api/v1/items.\nfunc Handler%d(w http.ResponseWriter, r *http.Request) error {\n\tid := r.URL.Query().Get(\"id\")\n"+
			"\tif id == \"\" {\n\t\treturn fmt.Errorf(\"missing id: %%w\", ErrBadRequest)\n\t}\n\treturn json.NewEncoder(w).Encode(load(id, %d))\n}\n```\n",
			i, i, i, i, i*37)})
		size += len(msgs[i].Content) + 32
	}
	if withSecrets {
		msgs[10].Content += "const key = \"" + keys[3].Value + "\"\n"
		msgs[50].Content += "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("admin:"+keys[7].Value)) + "\n"
		msgs[120].Content += `{"env":{"TOKEN":"` + keys[15].Value + `"}}`
	}
	body, err := json.Marshal(map[string]any{"model": "claude-sonnet-4-5", "max_tokens": 8192, "stream": true, "messages": msgs})
	if err != nil {
		panic(err)
	}
	lit := func(s string) pluginabi.TemplatePart {
		return pluginabi.TemplatePart{Case: pluginabi.TemplatePartLiteral, Literal: s}
	}
	return pluginabi.RequestTemplate{
		Method: pluginabi.HTTPMethodPost,
		URL:    []pluginabi.TemplatePart{lit("https://api.anthropic.com/v1/messages")},
		Headers: []pluginabi.HeaderTemplate{
			{Name: "content-type", Value: []pluginabi.TemplatePart{lit("application/json")}},
			{Name: "anthropic-version", Value: []pluginabi.TemplatePart{lit("2023-06-01")}},
			{Name: "x-api-key", Value: []pluginabi.TemplatePart{{Case: pluginabi.TemplatePartSecret, Secret: pluginabi.SecretReference{Name: "ANTHROPIC_API_KEY"}}}},
		},
		Body: body,
	}
}

// BenchmarkResolveRedact100KB20Secrets is the secret proxy's cost per
// provider request: resolve of a 100 KB request with 20 registered
// secrets, which redacts the body and the literal header parts, against
// resolve without a redactor. The goal is at most 0.2 ms per request.
func BenchmarkResolveRedact100KB20Secrets(b *testing.B) {
	keys := benchKeys()
	var set secret.Set
	for _, k := range keys {
		if err := set.Add(k); err != nil {
			b.Fatal(err)
		}
	}
	set.RedactString("build the matcher's index") // once, at start-up
	lookup := func(string) (string, error) { return keys[0].Value, nil }
	tests := []struct {
		name     string
		secrets  bool
		redactor *secret.Set
	}{
		{name: "no redactor", redactor: nil},
		{name: "no secret in the body", redactor: &set},
		{name: "three secrets in the body", secrets: true, redactor: &set},
	}
	for _, tt := range tests {
		tpl := benchRequest(keys, tt.secrets)
		b.Run(tt.name, func(b *testing.B) {
			r, err := resolve("anthropic", tpl, lookup, tt.redactor)
			if err != nil {
				b.Fatal(err)
			}
			if tt.secrets && tt.redactor != nil && (strings.Contains(string(r.req.Body), keys[3].Value) || !strings.Contains(string(r.req.Body), "${secret:KEY_03}")) {
				b.Fatal("the body was not redacted")
			}
			b.SetBytes(int64(len(tpl.Body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := resolve("anthropic", tpl, lookup, tt.redactor); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
