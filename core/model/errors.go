package model

import (
	"fmt"
	"strings"
)

// ErrorKind classifies why a provider request failed. Callers branch on the
// kind, never on the message text.
type ErrorKind string

// The error kinds. Retryable reports the default retry hint of each.
const (
	// ErrAuth: the credentials were missing, invalid or expired.
	ErrAuth ErrorKind = "auth"
	// ErrInvalidRequest: the provider rejected the request as malformed.
	ErrInvalidRequest ErrorKind = "invalid_request"
	// ErrContextOverflow: the request does not fit the model's context window.
	ErrContextOverflow ErrorKind = "context_overflow"
	// ErrRateLimit: too many requests; retry after the hinted delay.
	ErrRateLimit ErrorKind = "rate_limit"
	// ErrQuota: the account's quota or credit is exhausted.
	ErrQuota ErrorKind = "quota"
	// ErrOverloaded: the provider is temporarily overloaded.
	ErrOverloaded ErrorKind = "overloaded"
	// ErrServer: the provider failed internally.
	ErrServer ErrorKind = "server"
	// ErrNotFound: the model or endpoint does not exist.
	ErrNotFound ErrorKind = "not_found"
	// ErrTransport: the connection failed (DNS, TCP, TLS, reset, timeout).
	ErrTransport ErrorKind = "transport"
	// ErrTruncated: the stream ended without a stop signal.
	ErrTruncated ErrorKind = "truncated"
	// ErrAborted: the request was cancelled by the user or the runtime.
	ErrAborted ErrorKind = "aborted"
	// ErrMalformed: the stream broke the event protocol (for example a delta
	// for a tool call that was never started, or two terminal events). It is
	// a defect of the provider plugin, not of the remote service.
	ErrMalformed ErrorKind = "malformed"
)

// errorKinds lists every kind, in declaration order.
var errorKinds = []ErrorKind{ErrAuth, ErrInvalidRequest, ErrContextOverflow,
	ErrRateLimit, ErrQuota, ErrOverloaded, ErrServer, ErrNotFound, ErrTransport,
	ErrTruncated, ErrAborted, ErrMalformed}

// Valid reports whether k is one of the declared kinds.
func (k ErrorKind) Valid() bool {
	for _, v := range errorKinds {
		if k == v {
			return true
		}
	}
	return false
}

// Retryable reports the default retry hint of the kind: rate_limit,
// overloaded, server, transport and truncated may succeed when retried; the
// others will not without a change.
func (k ErrorKind) Retryable() bool {
	switch k {
	case ErrRateLimit, ErrOverloaded, ErrServer, ErrTransport, ErrTruncated:
		return true
	}
	return false
}

// Error is a classified provider failure. It implements error.
type Error struct {
	// Kind is the classification.
	Kind ErrorKind `json:"kind"`
	// Message is the human-readable explanation (never a secret).
	Message string `json:"message"`
	// Retryable is the retry hint; providers set it from the vendor's own
	// signal when there is one, otherwise from [ErrorKind.Retryable].
	Retryable bool `json:"retryable"`
	// RetryAfterMillis is how long to wait before retrying; 0 means no hint.
	RetryAfterMillis int64 `json:"retry_after_ms,omitempty"`
	// HTTPStatus is the response status, 0 when there was none.
	HTTPStatus int `json:"http_status,omitempty"`
	// ProviderType is the vendor's own error type string, for diagnostics.
	ProviderType string `json:"provider_type,omitempty"`
	// Code is the vendor's error code when it differs from ProviderType,
	// for diagnostics.
	Code string `json:"code,omitempty"`
	// RequestID is the vendor's request id, for support requests.
	RequestID string `json:"request_id,omitempty"`
}

// NewError returns an Error of kind k with the kind's default retry hint.
func NewError(k ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: k, Message: fmt.Sprintf(format, args...), Retryable: k.Retryable()}
}

// Error returns "model: KIND: MESSAGE" with the status and request id when known.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("model: ")
	b.WriteString(string(e.Kind))
	b.WriteString(": ")
	b.WriteString(e.Message)
	if e.HTTPStatus != 0 {
		fmt.Fprintf(&b, " (http %d)", e.HTTPStatus)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request id %s)", e.RequestID)
	}
	return b.String()
}
