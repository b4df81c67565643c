package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
)

type wireError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// kinds maps the API's error types to kinds.
var kinds = map[string]norm.ErrorKind{
	"invalid_request_error": norm.ErrInvalidRequest,
	"authentication_error":  norm.ErrAuth,
	"permission_error":      norm.ErrAuth,
	"billing_error":         norm.ErrQuota,
	"not_found_error":       norm.ErrNotFound,
	"request_too_large":     norm.ErrContextOverflow,
	"rate_limit_error":      norm.ErrRateLimit,
	"api_error":             norm.ErrServer,
	"timeout_error":         norm.ErrServer,
	"overloaded_error":      norm.ErrOverloaded,
}

// ClassifyResponse classifies a non-2xx response from its status, headers
// and body. Vendor signals win: x-should-retry over the kind's default,
// retry-after-ms over retry-after.
func ClassifyResponse(status int, h retryhint.Headers, body []byte, now time.Time) *norm.Error {
	var env struct {
		Error     *wireError `json:"error"`
		RequestID string     `json:"request_id"`
	}
	_ = json.Unmarshal(body, &env)
	reqID := env.RequestID
	if reqID == "" {
		reqID = h.Get("request-id")
	}
	e := classifyBody(status, env.Error, reqID)
	if env.Error == nil {
		e.Message = fmt.Sprintf("anthropic: http %d with a body that is not an API error: %.120q", status, body)
	}
	e.RetryAfter = retryhint.After(h, now)
	if r, ok := retryhint.ShouldRetry(h); ok {
		e.Retryable = r
	}
	return e
}

func classifyBody(status int, w *wireError, reqID string) *norm.Error {
	if w == nil {
		w = &wireError{}
	}
	kind, ok := kinds[w.Type]
	if !ok {
		kind = byStatus(status)
	}
	if kind == norm.ErrInvalidRequest && strings.Contains(w.Message, "prompt is too long") {
		kind = norm.ErrContextOverflow
	}
	return &norm.Error{Kind: kind, Message: w.Message, Retryable: kind.Retryable(), HTTPStatus: status,
		ProviderType: w.Type, RequestID: reqID}
}

func byStatus(status int) norm.ErrorKind {
	switch {
	case status == 401 || status == 403:
		return norm.ErrAuth
	case status == 402:
		return norm.ErrQuota
	case status == 404:
		return norm.ErrNotFound
	case status == 413:
		return norm.ErrContextOverflow
	case status == 429:
		return norm.ErrRateLimit
	case status == 529:
		return norm.ErrOverloaded
	case status >= 500 || status == 0:
		return norm.ErrServer
	}
	return norm.ErrInvalidRequest
}
