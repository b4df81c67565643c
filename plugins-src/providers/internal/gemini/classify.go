package gemini

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
)

type wireStatus struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  string `json:"status"`
	Details []struct {
		Type       string `json:"@type"`
		Reason     string `json:"reason"`
		RetryDelay string `json:"retryDelay"`
		Violations []struct {
			QuotaID string `json:"quotaId"`
		} `json:"violations"`
	} `json:"details"`
}

var kinds = map[string]norm.ErrorKind{
	"INVALID_ARGUMENT":    norm.ErrInvalidRequest,
	"FAILED_PRECONDITION": norm.ErrInvalidRequest,
	"UNAUTHENTICATED":     norm.ErrAuth,
	"PERMISSION_DENIED":   norm.ErrAuth,
	"NOT_FOUND":           norm.ErrNotFound,
	"RESOURCE_EXHAUSTED":  norm.ErrRateLimit,
	"INTERNAL":            norm.ErrServer,
	"UNAVAILABLE":         norm.ErrOverloaded,
	"DEADLINE_EXCEEDED":   norm.ErrServer,
}

// ClassifyResponse classifies a non-2xx Gemini response. A bad API key is
// a 400 INVALID_ARGUMENT with reason API_KEY_INVALID (auth, not
// invalid_request); the wait hint of a 429 is RetryInfo.retryDelay in the
// body (Gemini sends no rate-limit headers), then retry-after.
func ClassifyResponse(status int, h retryhint.Headers, body []byte, now time.Time) *norm.Error {
	e := errorObject(status, body)
	if e.RetryAfter == 0 {
		e.RetryAfter = retryhint.After(h, now)
	}
	return e
}

// errorObject classifies {"error":{code,message,status,details}}, from an
// error response or from the bare object appended to a 200 stream.
func errorObject(status int, body []byte) *norm.Error {
	var env struct {
		Error *wireStatus `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil || env.Error == nil {
		// A proxy's page or an empty body: the status alone classifies it
		// (a 401 is a credential problem, not a bad request).
		k := byStatus(status)
		return &norm.Error{Kind: k, Retryable: k.Retryable(), HTTPStatus: status,
			Message: fmt.Sprintf("gemini: http %d with a body that is not an API error: %.120q", status, body)}
	}
	w := env.Error
	if status == 0 {
		status = w.Code
	}
	kind, ok := kinds[w.Status]
	if !ok {
		kind = byStatus(status)
	}
	e := &norm.Error{Kind: kind, Message: w.Message, HTTPStatus: status, ProviderType: w.Status}
	perDay := false
	for _, d := range w.Details {
		if d.Reason == "API_KEY_INVALID" || d.Reason == "API_KEY_EXPIRED" {
			e.Kind = norm.ErrAuth
		}
		if strings.HasSuffix(d.Type, "google.rpc.RetryInfo") {
			e.RetryAfter = retryhint.Duration(d.RetryDelay)
		}
		for _, v := range d.Violations {
			perDay = perDay || strings.Contains(v.QuotaID, "PerDay")
		}
	}
	if e.Kind == norm.ErrRateLimit && perDay && e.RetryAfter == 0 {
		e.Kind = norm.ErrQuota // a daily quota is not a short wait
	}
	if e.Kind == norm.ErrInvalidRequest && strings.Contains(w.Message, "exceeds the maximum number of tokens") {
		e.Kind = norm.ErrContextOverflow
	}
	e.Retryable = e.Kind.Retryable()
	return e
}

func byStatus(status int) norm.ErrorKind {
	switch {
	case status == 401 || status == 403:
		return norm.ErrAuth
	case status == 404:
		return norm.ErrNotFound
	case status == 429:
		return norm.ErrRateLimit
	case status == 503:
		return norm.ErrOverloaded
	case status >= 500 || status == 0:
		return norm.ErrServer
	}
	return norm.ErrInvalidRequest
}
