package httpengine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
)

// Kind classifies why an exchange or a body failed, so retry policy can
// decide without reading message text. The zero Kind is invalid.
type Kind uint8

const (
	// KindRequest: the request was refused before anything was sent (a body
	// over [Config.MaxRequestBody], an unparsable URL or method). Not retryable
	// as is.
	KindRequest Kind = iota + 1
	// KindDNS: the host name did not resolve.
	KindDNS
	// KindConnect: no connection could be opened (refused, unreachable, or the
	// proxy refused the tunnel).
	KindConnect
	// KindTLS: the TLS handshake failed, including certificate verification
	// against the bundled roots.
	KindTLS
	// KindTimeout: a bound on time ran out: the response head did not arrive
	// within [Config.HeadTimeout], or no body chunk arrived within
	// [Config.ChunkGap].
	KindTimeout
	// KindReset: the peer reset or closed the connection before the message
	// was complete (including a body cut short of its Content-Length or of
	// its final chunk).
	KindReset
	// KindProtocol: the peer answered with something that is not valid HTTP
	// (malformed status line, headers, or chunked framing; HTTP/2 stream
	// errors).
	KindProtocol
	// KindCancelled: the caller's context ended before the response head.
	KindCancelled
)

var kindNames = [...]string{KindRequest: "request", KindDNS: "dns", KindConnect: "connect", KindTLS: "tls",
	KindTimeout: "timeout", KindReset: "reset", KindProtocol: "protocol", KindCancelled: "cancelled"}

// String returns the kind's lowercase name, e.g. "dns".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Error is every error the engine returns, from [Engine.Exchange] and in
// [End.Err]. Match it with errors.As; Err is the underlying cause and may be
// nil for bounds the engine enforces itself.
type Error struct {
	Kind   Kind
	Op     string // what the engine was doing: "send request", "read head", "read body"
	URL    string // the request URL without user info or query
	Detail string // the offending value and bound, and what to do next
	Err    error
}

// Error formats "httpengine: <kind>: <op> <url>: <detail>: <cause>".
func (e *Error) Error() string {
	s := "httpengine: " + e.Kind.String() + ": " + e.Op + " " + e.URL
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// classify maps an error from a RoundTripper or a body read to a Kind. Errors
// the engine caused itself (timers, cancellation) are decided by the caller
// before this is consulted.
func classify(err error) Kind {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var verifyErr *tls.CertificateVerificationError
	var alertErr tls.AlertError
	var recordErr tls.RecordHeaderError
	var unknownAuthority x509.UnknownAuthorityError
	var hostnameErr x509.HostnameError
	var invalidErr x509.CertificateInvalidError
	switch {
	case errors.As(err, &dnsErr):
		return KindDNS
	case errors.As(err, &verifyErr), errors.As(err, &alertErr), errors.As(err, &recordErr),
		errors.As(err, &unknownAuthority), errors.As(err, &hostnameErr), errors.As(err, &invalidErr):
		return KindTLS
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return KindReset
	case errors.As(err, &opErr) && (opErr.Op == "dial" || opErr.Op == "proxyconnect"):
		return KindConnect
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return KindTimeout
	}
	return KindProtocol
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
