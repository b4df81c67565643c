package httpengine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/httpengine/internal/testpki"
)

// tlsServer starts a loopback HTTPS server (HTTP/2 enabled) with a leaf from
// ca, answering with the negotiated protocol.
func tlsServer(t *testing.T, ca *testpki.CA) *httptest.Server {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto)
	}))
	srv.EnableHTTP2 = true
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "backend.invalid")}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func tlsEngine(t *testing.T, extra ...*x509.Certificate) *Engine {
	rt, err := NewTransport(TransportConfig{ExtraRoots: extra})
	if err != nil {
		t.Fatal(err)
	}
	return newEngine(t, Config{Transport: rt})
}

func TestTLSWithExplicitTestCAAndHTTP2(t *testing.T) {
	ca := testpki.NewCA(t)
	srv := tlsServer(t, ca)
	resp, err := tlsEngine(t, ca.Cert).Exchange(context.Background(), Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	chunks, end := drain(resp.Body)
	if resp.ProtoMajor != 2 || join(chunks) != "HTTP/2.0" || end.Outcome != Complete {
		t.Fatalf("proto %s (major %d), server saw %q, end %+v; want HTTP/2 end to end", resp.Proto, resp.ProtoMajor, join(chunks), end)
	}
}

func TestTLSRejectsUnknownCA(t *testing.T) {
	srv := tlsServer(t, testpki.NewCA(t))
	other := testpki.NewCA(t)
	for name, e := range map[string]*Engine{"bundled roots only": tlsEngine(t), "another extra CA": tlsEngine(t, other.Cert)} {
		t.Run(name, func(t *testing.T) {
			_, err := e.Exchange(context.Background(), Request{URL: srv.URL})
			if kindOf(t, err) != KindTLS || !strings.Contains(err.Error(), "unknown authority") {
				t.Fatalf("err = %v, want a tls error about an unknown authority", err)
			}
		})
	}
}

// TestSystemPoolIsNeverUsed runs in a child process whose system pool is
// exactly one test CA (SSL_CERT_FILE): plain net/http trusts the server, the
// engine must not.
func TestSystemPoolIsNeverUsed(t *testing.T) {
	if os.Getenv("HTTPENGINE_SYSTEM_POOL_CHILD") == "1" {
		systemPoolChild(t)
		return
	}
	dir := t.TempDir()
	ca := testpki.NewCA(t)
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, ca.PEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := tlsServer(t, ca)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSystemPoolIsNeverUsed$", "-test.v")
	cmd.Env = append(os.Environ(), "HTTPENGINE_SYSTEM_POOL_CHILD=1", "SSL_CERT_FILE="+caFile,
		"SSL_CERT_DIR="+dir, "HTTPENGINE_URL="+srv.URL)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "system pool accepted; engine rejected") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func systemPoolChild(t *testing.T) {
	url := os.Getenv("HTTPENGINE_URL")
	pool, err := x509.SystemCertPool()
	if err != nil {
		t.Fatal(err)
	}
	plain := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := plain.Get(url)
	if err != nil {
		t.Fatalf("net/http with the system pool should accept the server (else this test proves nothing): %v", err)
	}
	resp.Body.Close()
	def, err := http.Get(url) // the default client uses the system pool too
	if err != nil {
		t.Fatalf("default net/http client: %v", err)
	}
	def.Body.Close()

	_, err = newEngine(t, Config{}).Exchange(context.Background(), Request{URL: url})
	if err == nil || kindOf(t, err) != KindTLS {
		t.Fatalf("engine accepted a certificate known only to the system pool: err = %v", err)
	}
	t.Log("system pool accepted; engine rejected:", err)
}

func TestHTTP2ChunkGap(t *testing.T) {
	ca := testpki.NewCA(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "first")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // stall until the client gives up
	}))
	srv.EnableHTTP2 = true
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t)}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	rt, err := NewTransport(TransportConfig{ExtraRoots: []*x509.Certificate{ca.Cert}})
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, Config{Transport: rt, ChunkGap: 200 * ms})
	resp, err := e.Exchange(context.Background(), Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	chunks, end := drain(resp.Body)
	if resp.ProtoMajor != 2 || join(chunks) != "first" || end.Outcome != Failed || kindOf(t, end.Err) != KindTimeout {
		t.Fatalf("HTTP/%d stalled stream: %q, end %+v; want failed by the gap after \"first\"", resp.ProtoMajor, join(chunks), end)
	}
}

// An HTTP/2 stream reset mid-body must end the body failed, never complete.
func TestHTTP2StreamResetMidBody(t *testing.T) {
	ca := testpki.NewCA(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "partial")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the server resets the stream
	}))
	srv.EnableHTTP2 = true
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t)}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	resp, err := tlsEngine(t, ca.Cert).Exchange(context.Background(), Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	chunks, end := drain(resp.Body)
	if resp.ProtoMajor != 2 || join(chunks) != "partial" || end.Outcome != Failed || kindOf(t, end.Err) != KindProtocol {
		t.Fatalf("HTTP/%d reset stream: %q, end %+v; want failed (protocol) after \"partial\"", resp.ProtoMajor, join(chunks), end)
	}
}
