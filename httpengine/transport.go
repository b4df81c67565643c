package httpengine

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/smith-agent/smith/httpengine/internal/proxyenv"
	"github.com/smith-agent/smith/httpengine/internal/roots"
)

// NewTransport returns the engine's network transport: HTTP/1.1 and HTTP/2
// over pure-Go TLS that trusts only the bundled Mozilla roots plus
// c.ExtraRoots, the proxy from c.Proxy or the environment, no transparent
// decompression (bodies arrive byte for byte as the server sent them), and
// connection reuse. It fails on an unparsable proxy variable, naming it.
// The transport is safe for concurrent use; it implements
// [http.RoundTripper] so recorders and fakes can wrap or replace it.
func NewTransport(c TransportConfig) (http.RoundTripper, error) {
	pool, err := roots.Pool(c.ExtraRoots)
	if err != nil {
		return nil, err
	}
	proxy := c.Proxy
	if proxy == nil {
		r, err := proxyenv.New(proxyenv.FromEnv(os.Getenv))
		if err != nil {
			return nil, err
		}
		proxy = r.Proxy
	}
	dialer := &net.Dialer{Timeout: orDefault(c.DialTimeout, DefaultDialTimeout), KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:           func(r *http.Request) (*url.URL, error) { return proxy(r.URL) },
		DialContext:     dialer.DialContext,
		TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		OnProxyConnectResponse: func(_ context.Context, proxyURL *url.URL, req *http.Request, resp *http.Response) error {
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			// Typed so that classify reports KindConnect rather than a bare status text.
			return &net.OpError{Op: "proxyconnect", Net: "tcp", Err: fmt.Errorf(
				"proxy %s refused the tunnel to %s with %q; check HTTPS_PROXY, NO_PROXY and the proxy's rules",
				proxyURL.Redacted(), req.Host, resp.Status)}
		},
		ForceAttemptHTTP2:   true,
		DisableCompression:  true,
		MaxIdleConnsPerHost: 8,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: orDefault(c.DialTimeout, DefaultDialTimeout),
	}, nil
}
