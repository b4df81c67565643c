package norm

import (
	"fmt"
	"strings"
	"time"
)

// ErrorKind classifies why a request failed; callers branch on the kind,
// never on message text.
type ErrorKind string

// The error kinds, as in the runtime's vocabulary.
const (
	ErrAuth            ErrorKind = "auth"
	ErrInvalidRequest  ErrorKind = "invalid_request"
	ErrContextOverflow ErrorKind = "context_overflow"
	ErrRateLimit       ErrorKind = "rate_limit"
	ErrQuota           ErrorKind = "quota"
	ErrOverloaded      ErrorKind = "overloaded"
	ErrServer          ErrorKind = "server"
	ErrNotFound        ErrorKind = "not_found"
	ErrTransport       ErrorKind = "transport"
	ErrTruncated       ErrorKind = "truncated"
	ErrAborted         ErrorKind = "aborted"
	ErrMalformed       ErrorKind = "malformed"
)

// Retryable reports the default retry hint of the kind.
func (k ErrorKind) Retryable() bool {
	switch k {
	case ErrRateLimit, ErrOverloaded, ErrServer, ErrTransport, ErrTruncated:
		return true
	}
	return false
}

// Error is a classified provider failure. It implements error.
type Error struct {
	Kind ErrorKind
	// Message is the vendor's explanation (never a secret).
	Message string
	// Retryable is the retry hint: the vendor's own signal when it gave one
	// (x-should-retry), otherwise the kind's default.
	Retryable bool
	// RetryAfter is how long to wait before retrying; 0 means no hint.
	RetryAfter time.Duration
	// HTTPStatus is the response status, 0 for in-stream errors.
	HTTPStatus int
	// ProviderType is the vendor's error type or status string.
	ProviderType string
	// Code is the vendor's error code when it differs from ProviderType.
	Code string
	// RequestID is the vendor's request id.
	RequestID string
}

// Error returns "KIND: MESSAGE" with the status, vendor type and request id.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Kind))
	b.WriteString(": ")
	b.WriteString(e.Message)
	if e.ProviderType != "" {
		fmt.Fprintf(&b, " (%s)", e.ProviderType)
	}
	if e.HTTPStatus != 0 {
		fmt.Fprintf(&b, " (http %d)", e.HTTPStatus)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request id %s)", e.RequestID)
	}
	return b.String()
}
