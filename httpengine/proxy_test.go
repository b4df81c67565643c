package httpengine

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/httpengine/internal/testpki"
)

// loopProxy is a loopback forward proxy: CONNECT tunnels go to backend
// whatever host they name; absolute-form requests are answered directly.
type loopProxy struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // "CONNECT host:port" or "GET absolute-url"
}

func newLoopProxy(t *testing.T, backend string) *loopProxy {
	p := &loopProxy{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.seen = append(p.seen, r.Method+" "+r.RequestURI)
		p.mu.Unlock()
		if r.Method != http.MethodConnect {
			io.WriteString(w, "forwarded "+r.URL.String())
			return
		}
		up, err := net.Dial("tcp", backend)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		c, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			up.Close()
			return
		}
		go func() { io.Copy(up, buf); up.(*net.TCPConn).CloseWrite() }()
		io.Copy(c, up)
		c.Close()
		up.Close()
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *loopProxy) log() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

func clearProxyEnv(t *testing.T) {
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"} {
		t.Setenv(k, "")
	}
}

func TestHTTPSProxyConnect(t *testing.T) {
	ca := testpki.NewCA(t)
	backend := tlsServer(t, ca)
	proxy := newLoopProxy(t, backend.Listener.Addr().String())
	clearProxyEnv(t)
	t.Setenv("HTTPS_PROXY", proxy.URL)
	e := tlsEngine(t, ca.Cert)
	// backend.invalid cannot resolve: only the proxy can have reached it.
	resp, err := e.Exchange(context.Background(), Request{URL: "https://backend.invalid/v1"})
	if err != nil {
		t.Fatal(err)
	}
	chunks, end := drain(resp.Body)
	if end.Outcome != Complete || join(chunks) != "HTTP/2.0" {
		t.Fatalf("through the tunnel: %q %+v", join(chunks), end)
	}
	if got := proxy.log(); len(got) != 1 || got[0] != "CONNECT backend.invalid:443" {
		t.Fatalf("proxy saw %q, want one CONNECT backend.invalid:443", got)
	}
}

func TestHTTPProxyForwarding(t *testing.T) {
	proxy := newLoopProxy(t, "")
	clearProxyEnv(t)
	t.Setenv("http_proxy", proxy.URL)
	resp, err := newEngine(t, Config{}).Exchange(context.Background(), Request{URL: "http://backend.invalid/v1?x=1"})
	if err != nil {
		t.Fatal(err)
	}
	chunks, _ := drain(resp.Body)
	if join(chunks) != "forwarded http://backend.invalid/v1?x=1" {
		t.Fatalf("proxy answered %q", join(chunks))
	}
	if got := proxy.log(); len(got) != 1 || got[0] != "GET http://backend.invalid/v1?x=1" {
		t.Fatalf("proxy saw %q", got)
	}
}

func TestNoProxyBypasses(t *testing.T) {
	proxy := newLoopProxy(t, "")
	clearProxyEnv(t)
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("NO_PROXY", "example.test,.invalid")
	e := newEngine(t, Config{})
	for _, u := range []string{"http://backend.invalid/", "https://backend.invalid/"} {
		_, err := e.Exchange(context.Background(), Request{URL: u})
		if kindOf(t, err) != KindDNS {
			t.Fatalf("%s with NO_PROXY: %v, want a direct attempt failing in dns", u, err)
		}
	}
	if got := proxy.log(); len(got) != 0 {
		t.Fatalf("proxy saw %q despite NO_PROXY", got)
	}
}

func TestProxyFunctionAndBadEnv(t *testing.T) {
	proxy := newLoopProxy(t, "")
	pu, _ := url.Parse(proxy.URL)
	rt, err := NewTransport(TransportConfig{Proxy: func(u *url.URL) (*url.URL, error) { return pu, nil }})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := newEngine(t, Config{Transport: rt}).Exchange(context.Background(), Request{URL: "http://backend.invalid/fn"})
	if err != nil {
		t.Fatal(err)
	}
	drain(resp.Body)
	if got := proxy.log(); len(got) != 1 {
		t.Fatalf("explicit proxy function not used: %q", got)
	}

	clearProxyEnv(t)
	t.Setenv("HTTPS_PROXY", "ftp://proxy.invalid")
	if _, err := New(Config{}); err == nil || !strings.Contains(err.Error(), "HTTPS_PROXY") {
		t.Fatalf("New with a bad HTTPS_PROXY: %v, want an error naming the variable", err)
	}
}

func TestProxyRefusesTunnel(t *testing.T) {
	refuser := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "denied", http.StatusForbidden)
	}))
	defer refuser.Close()
	clearProxyEnv(t)
	t.Setenv("HTTPS_PROXY", refuser.URL)
	_, err := newEngine(t, Config{}).Exchange(context.Background(), Request{URL: "https://backend.invalid/"})
	if kindOf(t, err) != KindConnect || !strings.Contains(err.Error(), `refused the tunnel to backend.invalid:443 with "403 Forbidden"`) {
		t.Fatalf("refused CONNECT: %v, want KindConnect naming the target and status", err)
	}
}
