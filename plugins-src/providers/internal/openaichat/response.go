package openaichat

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
)

// ClassifyResponse classifies a non-2xx response of the OpenAI APIs (Chat
// Completions and Responses share the error envelope) or of a compatible
// server. The wait hint comes from retry-after-ms, retry-after,
// x-ratelimit-reset-*, then the message text ("try again in 3.3s"); an
// explicit x-should-retry overrides the kind's default.
func ClassifyResponse(status int, h retryhint.Headers, body []byte, now time.Time) *norm.Error {
	var env struct {
		Error json.RawMessage `json:"error"`
	}
	var w WireError
	if json.Unmarshal(body, &env) == nil && len(env.Error) > 0 {
		if json.Unmarshal(env.Error, &w) != nil {
			_ = json.Unmarshal(env.Error, &w.Message)
		}
	} else {
		w.Message = fmt.Sprintf("openaichat: http %d with a body that is not an API error: %.120q", status, body)
	}
	e := Classify(status, &w)
	e.RequestID = h.Get("x-request-id")
	if after := retryhint.After(h, now); after > 0 {
		e.RetryAfter = after
	}
	if r, ok := retryhint.ShouldRetry(h); ok && e.Kind != norm.ErrQuota {
		e.Retryable = r
	}
	return e
}
