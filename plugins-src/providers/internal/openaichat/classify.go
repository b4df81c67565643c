package openaichat

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
)

// WireError is the error object of the OpenAI APIs and of compatible
// servers. Code is a string at OpenAI and a number at OpenRouter.
type WireError struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
	Param   json.RawMessage `json:"param"`
}

// CodeString returns the code as text ("" when absent).
func (w *WireError) CodeString() string {
	var s string
	if json.Unmarshal(w.Code, &s) == nil {
		return s
	}
	if len(w.Code) == 0 || string(w.Code) == "null" {
		return ""
	}
	return string(w.Code)
}

// Classify maps an OpenAI-style error to a kind: the code and type first
// (insufficient_quota is a 429 that must not be retried;
// invalid_api_key comes with type invalid_request_error), then the status.
func Classify(status int, w *WireError) *norm.Error {
	code := w.CodeString()
	kind := norm.ErrorKind("")
	for _, s := range []string{code, w.Type} {
		if k, ok := kindsByCode[s]; ok {
			kind = k
			break
		}
	}
	if kind == "" {
		kind = byStatus(status, code)
	}
	if kind == norm.ErrInvalidRequest && isOverflow(w.Message) {
		kind = norm.ErrContextOverflow
	}
	ptype := w.Type
	if ptype == "" {
		ptype = code
	}
	e := &norm.Error{Kind: kind, Message: w.Message, Retryable: kind.Retryable(), HTTPStatus: status, ProviderType: ptype}
	if kind == norm.ErrRateLimit {
		e.RetryAfter = retryhint.FromMessage(w.Message) // headers, when there are any, take precedence
	}
	if code != "" && code != ptype {
		e.Code = code
	}
	return e
}

var kindsByCode = map[string]norm.ErrorKind{
	"insufficient_quota":          norm.ErrQuota,
	"billing_hard_limit_reached":  norm.ErrQuota,
	"usage_limit_reached":         norm.ErrQuota,
	"usage_not_included":          norm.ErrQuota,
	"invalid_api_key":             norm.ErrAuth,
	"authentication_error":        norm.ErrAuth,
	"permission_error":            norm.ErrAuth,
	"context_length_exceeded":     norm.ErrContextOverflow,
	"exceed_context_size_error":   norm.ErrContextOverflow,
	"rate_limit_exceeded":         norm.ErrRateLimit,
	"model_not_found":             norm.ErrNotFound,
	"previous_response_not_found": norm.ErrInvalidRequest,
	"server_error":                norm.ErrServer,
	"server_is_overloaded":        norm.ErrOverloaded,
	"slow_down":                   norm.ErrRateLimit,
}

func isOverflow(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "context length") || strings.Contains(m, "context window") ||
		strings.Contains(m, "maximum context") || strings.Contains(m, "too many tokens")
}

func byStatus(status int, code string) norm.ErrorKind {
	switch {
	case status == 401 || status == 403 || code == "401" || code == "403":
		return norm.ErrAuth
	case status == 402 || code == "402":
		return norm.ErrQuota
	case status == 404 || code == "404":
		return norm.ErrNotFound
	case status == 429 || code == "429":
		return norm.ErrRateLimit
	case status == 503 || status == 529 || code == "503" || code == "529":
		return norm.ErrOverloaded
	case status >= 500 || (status == 0 && code == "") || strings.HasPrefix(code, "5"):
		return norm.ErrServer
	}
	return norm.ErrInvalidRequest
}

// streamError classifies the top-level "error" of a stream chunk
// (OpenRouter and others send it with HTTP 200).
func streamError(raw json.RawMessage) *norm.Error {
	var w WireError
	if json.Unmarshal(raw, &w) != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			w.Message = s
		} else {
			w.Message = fmt.Sprintf("%.200s", raw)
		}
	}
	return Classify(0, &w)
}
