package provider

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/httpengine"
)

// resolved is a request template with its secrets substituted: the engine
// request carries plaintext; shown has "${NAME}" where a secret was.
type resolved struct {
	req     httpengine.Request
	shown   http.Header
	secrets []string // the substituted values, for scrubbing
}

// resolve substitutes the template's secret references. Secrets are
// allowed only in header values, which the engine redacts when observed;
// a URL must be all literal. A header referencing an optional secret the
// resolver has no value for ([ErrNoSecret]) is left out. redactor, when
// set, is applied to the body and to the literal parts of header values
// first, so no registered secret leaves but through a declared reference.
func resolve(provider string, t pluginabi.RequestTemplate, secrets Secrets, redactor *secret.Set) (resolved, error) {
	redact := func(b []byte) ([]byte, bool) { return b, false }
	redactBody := redact
	if redactor != nil {
		redact = redactor.Redact
		// The body is JSON text: a redaction must not split an escape
		// sequence, or the request becomes unparsable.
		redactBody = redactor.RedactJSON
	}
	var r resolved
	switch t.Method {
	case pluginabi.HTTPMethodGet:
		r.req.Method = http.MethodGet
	case pluginabi.HTTPMethodPost:
		r.req.Method = http.MethodPost
	default:
		return r, fmt.Errorf("provider: the codec for %q asked for an HTTP method this host does not know (%v); update Smith", provider, t.Method)
	}
	var url strings.Builder
	for _, part := range t.URL {
		switch part.Case {
		case pluginabi.TemplatePartLiteral:
			url.WriteString(part.Literal)
		case pluginabi.TemplatePartSecret:
			return r, fmt.Errorf("provider: the codec for %q puts secret %s in the URL; secrets are only substituted in headers", provider, part.Secret.Name)
		default:
			return r, fmt.Errorf("provider: the codec for %q sent a URL part this host does not know (%q); update Smith", provider, part.Unknown)
		}
	}
	r.req.URL = url.String()
	r.req.Header = http.Header{}
	r.shown = http.Header{}
	r.req.Body, _ = redactBody(t.Body)
	for _, h := range t.Headers {
		var val, show strings.Builder
		secret, absent := false, false
		for _, part := range h.Value {
			switch part.Case {
			case pluginabi.TemplatePartLiteral:
				lit := part.Literal
				if b, ok := redact([]byte(lit)); ok {
					lit = string(b)
				}
				val.WriteString(lit)
				show.WriteString(lit)
			case pluginabi.TemplatePartSecret:
				v, err := secrets(part.Secret.Name)
				if errors.Is(err, ErrNoSecret) && OptionalSecret(part.Secret.Name) {
					absent = true // an optional key nobody configured: no header
					continue
				}
				if err != nil {
					return r, fmt.Errorf("provider: resolve credential %s for %q: %w", part.Secret.Name, provider, err)
				}
				if v == "" {
					return r, fmt.Errorf("provider: credential %s for %q is empty; set it", part.Secret.Name, provider)
				}
				val.WriteString(v)
				show.WriteString("${" + part.Secret.Name + "}")
				r.secrets = append(r.secrets, v)
				secret = true
			default:
				return r, fmt.Errorf("provider: the codec for %q sent a header part this host does not know (%q) in %s; update Smith", provider, part.Unknown, h.Name)
			}
		}
		if absent {
			continue
		}
		r.req.Header.Add(h.Name, val.String())
		r.shown.Add(h.Name, show.String())
		if secret {
			r.req.SecretHeaders = append(r.req.SecretHeaders, h.Name)
		}
	}
	return r, nil
}

// scrub returns s without any registered secret (each becomes its
// reference, through Config.Redactor) and without the request's
// credentials.
func (c *converter) scrub(s string) string {
	if c.redactor != nil {
		s = c.redactor.RedactString(s)
	}
	return scrub(s, c.secrets)
}

// scrub replaces every occurrence of a substituted secret in s; servers
// sometimes echo a rejected key in their error message. A secret shorter
// than wholeWord bytes is replaced only where it stands as a whole token
// (not inside a run of letters, digits, '-' or '_'): a one-letter test key
// must not turn every "x" of a recorded answer into [redacted].
func scrub(s string, secrets []string) string {
	for _, v := range secrets {
		if v != "" && strings.Contains(s, v) {
			s = redact(s, v)
		}
	}
	return s
}

func scrubBytes(b []byte, secrets []string) []byte {
	for _, v := range secrets {
		if v != "" && strings.Contains(string(b), v) {
			b = []byte(redact(string(b), v))
		}
	}
	return b
}

// wholeWord is the length below which a secret is redacted only as a
// whole token; a key this long does not occur by accident.
const wholeWord = 16

// redact replaces the occurrences of secret v in s (see scrub).
func redact(s, v string) string {
	if len(v) >= wholeWord {
		return strings.ReplaceAll(s, v, httpengine.Redacted)
	}
	var b strings.Builder
	for {
		i := strings.Index(s, v)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(v)
		whole := (i == 0 || !tokenByte(s[i-1])) && (end == len(s) || !tokenByte(s[end]))
		b.WriteString(s[:i])
		if whole {
			b.WriteString(httpengine.Redacted)
		} else {
			b.WriteString(v)
		}
		s = s[end:]
	}
}

// tokenByte reports whether c continues a key-like token.
func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
