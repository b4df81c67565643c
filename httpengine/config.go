package httpengine

import (
	"crypto/x509"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"time"
)

// Defaults for [Config]. A zero field means its default.
const (
	DefaultMaxRequestBody  = 16 << 20 // 16 MiB
	DefaultMaxResponseBody = 64 << 20 // 64 MiB
	DefaultHeadTimeout     = 120 * time.Second
	DefaultChunkGap        = 300 * time.Second
	DefaultChunkQueue      = 8
	DefaultReadSize        = 32 << 10 // 32 KiB
	DefaultDialTimeout     = 30 * time.Second
)

// defaultSecretHeaders are redacted in everything observed even when
// neither the Config nor the Request lists them.
var defaultSecretHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"}

// Config sets an [Engine]'s bounds. The zero Config is valid: every zero
// field takes the default named on it. Negative values are rejected by [New].
type Config struct {
	// MaxRequestBody bounds a request body; a larger one is refused before
	// any connection is opened. Default 16 MiB.
	MaxRequestBody int64
	// MaxResponseBody bounds the bytes delivered from one response body; a
	// body longer than this ends with [Truncated] after exactly this many
	// bytes. Default 64 MiB.
	MaxResponseBody int64
	// HeadTimeout bounds the time from the start of an exchange (dialling,
	// TLS, proxy and sending included) to the complete response head.
	// Default 120 s.
	HeadTimeout time.Duration
	// ChunkGap bounds the wait for each body read, starting when the head
	// arrives and again after each chunk; time the consumer spends not
	// calling [Body.Next] does not count. Exceeding it ends the body
	// [Failed] with [KindTimeout]. Default 300 s.
	ChunkGap time.Duration
	// ChunkQueue is the capacity of the channel between the goroutine that
	// reads the body and [Body.Next]: the reader runs at most ChunkQueue
	// chunks ahead of the consumer, and a body holds at most ChunkQueue+2
	// buffers of ReadSize bytes. Default 8.
	ChunkQueue int
	// ReadSize is the largest chunk read from the wire at once. Default 32 KiB.
	ReadSize int
	// SecretHeaders are header names whose values are redacted in everything
	// an [Observer] sees, in addition to [Request.SecretHeaders] and the
	// always-secret Authorization, Proxy-Authorization, Cookie and
	// Set-Cookie.
	SecretHeaders []string
	// Observer receives every exchange's events. Default none.
	Observer Observer
	// Transport carries the requests. Default [NewTransport] with a zero
	// [TransportConfig] (bundled roots, proxy from the environment read when
	// [New] runs). Set it to a recorder, a replay transport or a fake.
	Transport http.RoundTripper
}

// TransportConfig configures [NewTransport]. The zero value is valid.
type TransportConfig struct {
	// ExtraRoots are trusted in addition to the bundled Mozilla roots (for
	// example a company or test CA). The system pool is never used.
	ExtraRoots []*x509.Certificate
	// Proxy picks a proxy per request URL; nil result means direct. Default:
	// HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lowercase forms) read
	// when [NewTransport] runs; localhost and loopback addresses are never
	// proxied.
	Proxy func(*url.URL) (*url.URL, error)
	// DialTimeout bounds opening one TCP connection. Default 30 s (the whole
	// head is still bounded by [Config.HeadTimeout]).
	DialTimeout time.Duration
}

type settings struct {
	maxRequest, maxResponse int64
	headTimeout, chunkGap   time.Duration
	queue, readSize         int
	secrets                 map[string]bool
	observer                Observer
	transport               http.RoundTripper
}

func (c Config) settings() (settings, error) {
	s := settings{
		maxRequest: orDefault(c.MaxRequestBody, DefaultMaxRequestBody), maxResponse: orDefault(c.MaxResponseBody, DefaultMaxResponseBody),
		headTimeout: orDefault(c.HeadTimeout, DefaultHeadTimeout), chunkGap: orDefault(c.ChunkGap, DefaultChunkGap),
		queue: orDefault(c.ChunkQueue, DefaultChunkQueue), readSize: orDefault(c.ReadSize, DefaultReadSize),
		observer: c.Observer, transport: c.Transport,
	}
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"MaxRequestBody", c.MaxRequestBody}, {"MaxResponseBody", c.MaxResponseBody},
		{"HeadTimeout", int64(c.HeadTimeout)}, {"ChunkGap", int64(c.ChunkGap)},
		{"ChunkQueue", int64(c.ChunkQueue)}, {"ReadSize", int64(c.ReadSize)},
	} {
		if f.v < 0 {
			return s, fmt.Errorf("httpengine: Config.%s is %d; use 0 for the default or a positive bound", f.name, f.v)
		}
	}
	s.secrets = secretSet(defaultSecretHeaders, c.SecretHeaders)
	return s, nil
}

func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

func secretSet(lists ...[]string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lists {
		for _, name := range l {
			m[textproto.CanonicalMIMEHeaderKey(name)] = true
		}
	}
	return m
}
