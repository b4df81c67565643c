package codec

import (
	"fmt"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/anthropic"
	"github.com/smith-agent/smith/plugins-src/providers/internal/gemini"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openaichat"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openairesp"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
)

// API names a wire protocol.
type API string

// The wire APIs.
const (
	Anthropic       API = "anthropic"
	OpenAIChat      API = "openai-chat"
	OpenAIResponses API = "openai-responses"
	Gemini          API = "gemini"
)

// NewDecoder returns a decoder for api whose events name provider as the
// producer of opaque payloads.
func NewDecoder(api API, provider string) (norm.Decoder, error) {
	switch api {
	case Anthropic:
		return anthropic.NewDecoder(provider), nil
	case OpenAIChat:
		return openaichat.NewDecoder(provider), nil
	case OpenAIResponses:
		return openairesp.NewDecoder(provider), nil
	case Gemini:
		return gemini.NewDecoder(provider), nil
	}
	return nil, fmt.Errorf("codec: unknown wire API %q; want anthropic, openai-chat, openai-responses or gemini", api)
}

// ClassifyResponse classifies a non-2xx response of api from its status,
// headers (any case) and body; now resolves HTTP-date retry-after values.
func ClassifyResponse(api API, status int, h retryhint.Headers, body []byte, now time.Time) (*norm.Error, error) {
	switch api {
	case Anthropic:
		return anthropic.ClassifyResponse(status, h, body, now), nil
	case OpenAIChat, OpenAIResponses:
		return openaichat.ClassifyResponse(status, h, body, now), nil
	case Gemini:
		return gemini.ClassifyResponse(status, h, body, now), nil
	}
	return nil, fmt.Errorf("codec: unknown wire API %q; want anthropic, openai-chat, openai-responses or gemini", api)
}

// BuildRequest builds the request template of api for r; q shapes
// openai-chat requests and is ignored by the other APIs; secretRef names the
// credential the host substitutes ("" for keyless openai-chat servers).
func BuildRequest(api API, r *norm.Request, q Quirks, secretRef string) (*norm.HTTPRequest, error) {
	switch api {
	case Anthropic:
		return anthropic.BuildRequest(r, secretRef)
	case OpenAIChat:
		return openaichat.BuildRequest(r, q, secretRef)
	case OpenAIResponses:
		return openairesp.BuildRequest(r, secretRef)
	case Gemini:
		return gemini.BuildRequest(r, secretRef)
	}
	return nil, fmt.Errorf("codec: unknown wire API %q; want anthropic, openai-chat, openai-responses or gemini", api)
}

// Quirks are the per-server request differences of openai-chat servers.
type Quirks = openaichat.Quirks
