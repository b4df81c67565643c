package httpengine

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/smith-agent/smith/httpengine/internal/testdns"
	"github.com/smith-agent/smith/httpengine/internal/testpki"
)

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestTransportErrorKinds(t *testing.T) {
	untrusted := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	untrusted.TLS = &tls.Config{Certificates: []tls.Certificate{testpki.NewCA(t).Leaf(t)}}
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0)
	untrusted.StartTLS()
	defer untrusted.Close()
	plainToTLS := rawServer(t, func(c net.Conn, r *bufio.Reader) { io.WriteString(c, "HTTP/1.1 400 Bad Request\r\n\r\n") })

	tests := []struct {
		name string
		url  string
		want Kind
		msg  string
	}{
		{"dns", "http://no-such-host.invalid/", KindDNS, "no-such-host.invalid"},
		{"connect refused", "http://" + closedPort(t) + "/", KindConnect, "connection refused"},
		{"tls untrusted certificate", untrusted.URL, KindTLS, "certificate"},
		{"tls to a plain server", strings.Replace(plainToTLS, "http:", "https:", 1), KindTLS, "tls"},
		{"reset before head", rawServer(t, func(c net.Conn, r *bufio.Reader) { reset(c) }), KindReset, "read head"},
		{"closed before head", rawServer(t, func(c net.Conn, r *bufio.Reader) {}), KindReset, "read head"},
		{"garbage status line", rawServer(t, func(c net.Conn, r *bufio.Reader) { io.WriteString(c, "SMTP ready\r\n\r\n") }), KindProtocol, "malformed"},
		{"conflicting content-length", rawServer(t, func(c net.Conn, r *bufio.Reader) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!")
		}), KindProtocol, "Content-Length"},
		{"bad url", "ftp://example.invalid/", KindRequest, "not an absolute http or https URL"},
	}
	queries := testdns.Queries()
	defer func() {
		if testdns.Queries() == queries {
			t.Error("the dns case never reached the loopback resolver")
		}
	}()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t, Config{})
			resp, err := e.Exchange(context.Background(), Request{URL: tt.url})
			if err == nil {
				resp.Body.Close()
				t.Fatalf("Exchange(%s) succeeded with status %d", tt.url, resp.StatusCode)
			}
			var xe *Error
			if !errors.As(err, &xe) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			if xe.Kind != tt.want {
				t.Fatalf("kind %v, want %v: %v", xe.Kind, tt.want, err)
			}
			if !strings.HasPrefix(err.Error(), "httpengine: "+tt.want.String()+": ") || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("error %q lacks prefix or %q", err, tt.msg)
			}
		})
	}
}

func TestErrorHidesUserInfoAndQuery(t *testing.T) {
	e := newEngine(t, Config{})
	_, err := e.Exchange(context.Background(), Request{URL: "http://user:pw-secret@no-such-host.invalid/p?key=q-secret"})
	if err == nil || strings.Contains(err.Error(), "pw-secret") || strings.Contains(err.Error(), "q-secret") {
		t.Fatalf("error leaks URL secrets: %v", err)
	}
	_, err = e.Exchange(context.Background(), Request{URL: "http://user:pw-secret@host\x7f/"})
	if err == nil || strings.Contains(err.Error(), "pw-secret") {
		t.Fatalf("unparsable URL error leaks secrets: %v", err)
	}
}

func TestKindAndOutcomeNames(t *testing.T) {
	tests := []struct {
		name string
		got  string
	}{
		{"dns", KindDNS.String()}, {"connect", KindConnect.String()}, {"tls", KindTLS.String()},
		{"timeout", KindTimeout.String()}, {"reset", KindReset.String()}, {"protocol", KindProtocol.String()},
		{"request", KindRequest.String()}, {"cancelled", KindCancelled.String()}, {"kind(0)", Kind(0).String()},
		{"complete", Complete.String()}, {"truncated", Truncated.String()}, {"cancelled", Cancelled.String()},
		{"failed", Failed.String()}, {"outcome(9)", Outcome(9).String()},
	}
	for _, tt := range tests {
		if tt.got != tt.name {
			t.Errorf("String() = %q, want %q", tt.got, tt.name)
		}
	}
}
