package httpengine

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// reset closes c with an RST instead of a FIN.
func reset(c net.Conn) {
	c.(*net.TCPConn).SetLinger(0)
	c.Close()
}

func TestBodyOutcomes(t *testing.T) {
	tests := []struct {
		name      string
		response  string // written verbatim after the request head
		rst       bool   // end with a reset instead of a close
		want      Outcome
		wantKind  Kind
		delivered string
	}{
		{"chunked complete", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
			false, Complete, 0, "hello world"},
		{"content-length complete", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", false, Complete, 0, "hello"},
		{"close-delimited complete", "HTTP/1.0 200 OK\r\n\r\nuntil close", false, Complete, 0, "until close"},
		{"closed inside a chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n10\r\nonly-part",
			false, Failed, KindReset, "helloonly-part"},
		{"closed before the last chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
			false, Failed, KindReset, "hello"},
		{"closed short of content-length", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly forty-one bytes of the hundred sent.",
			false, Failed, KindReset, "only forty-one bytes of the hundred sent."},
		{"reset short of content-length", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nsome",
			true, Failed, KindReset, "some"},
		{"malformed chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nbad\r\n",
			false, Failed, KindProtocol, "hello"},
		// More bytes than Content-Length: the framing ends the body; the
		// extra bytes are not part of it.
		{"longer than content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello, and more", false, Complete, 0, "hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
				io.WriteString(c, tt.response)
				if tt.rst {
					reset(c)
				}
			})
			obs := &recorder{}
			e := newEngine(t, Config{Observer: obs})
			chunks, end := drain(get(t, e, url).Body)
			if end.Outcome != tt.want {
				t.Fatalf("outcome %v (err %v), want %v", end.Outcome, end.Err, tt.want)
			}
			if tt.want == Failed {
				if k := kindOf(t, end.Err); k != tt.wantKind {
					t.Fatalf("failure kind %v (%v), want %v", k, end.Err, tt.wantKind)
				}
				if !strings.Contains(end.Err.Error(), "body stopped after") {
					t.Fatalf("failure %q does not say where the body stopped", end.Err)
				}
			} else if end.Err != nil {
				t.Fatalf("%v body carries error %v", end.Outcome, end.Err)
			}
			if got := join(chunks); got != tt.delivered {
				t.Fatalf("delivered %q, want %q", got, tt.delivered)
			}
			if n := strings.Count(obs.dump(), "EndEvent"); n != 1 {
				t.Fatalf("observed %d end events, want exactly 1", n)
			}
		})
	}
}

func TestNon2xxIsAResponse(t *testing.T) {
	for _, code := range []int{301, 400, 401, 404, 429, 500, 503} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", "/elsewhere")
				w.WriteHeader(code)
				io.WriteString(w, "status body")
			}))
			defer srv.Close()
			resp, err := newEngine(t, Config{}).Exchange(context.Background(), Request{URL: srv.URL})
			if err != nil {
				t.Fatalf("status %d became an error: %v", code, err)
			}
			chunks, end := drain(resp.Body)
			if resp.StatusCode != code || join(chunks) != "status body" || end.Outcome != Complete {
				t.Fatalf("status %d, body %q, end %+v", resp.StatusCode, join(chunks), end)
			}
		})
	}
}

func TestEmptyBodies(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	for _, method := range []string{"GET", "HEAD"} {
		resp, err := newEngine(t, Config{}).Exchange(context.Background(), Request{Method: method, URL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		if chunks, end := drain(resp.Body); len(chunks) != 0 || end.Outcome != Complete {
			t.Fatalf("%s 204: chunks %q end %+v", method, chunks, end)
		}
	}
}

func TestBodyArrivesAsEncodedByTheServer(t *testing.T) {
	encoded := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 1, 2, 3}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ae := r.Header.Get("Accept-Encoding"); ae != "" {
			http.Error(w, "unexpected Accept-Encoding "+ae, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(encoded)
	}))
	defer srv.Close()
	resp := get(t, newEngine(t, Config{}), srv.URL)
	chunks, end := drain(resp.Body)
	if resp.StatusCode != 200 || join(chunks) != string(encoded) || end.Outcome != Complete {
		t.Fatalf("status %d body %q end %+v; want the gzip bytes untouched", resp.StatusCode, join(chunks), end)
	}
}

// stuckBody returns no data and no error forever.
type stuckBody struct{}

func (stuckBody) Read([]byte) (int, error) { return 0, nil }
func (stuckBody) Close() error             { return nil }

type stuckTransport struct{}

func (stuckTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{}, Body: stuckBody{}, ContentLength: -1}, nil
}

func TestReaderMakingNoProgressFails(t *testing.T) {
	_, end := drain(get(t, newEngine(t, Config{Transport: stuckTransport{}}), "http://fake.invalid/").Body)
	if end.Outcome != Failed || !errors.Is(end.Err, io.ErrNoProgress) {
		t.Fatalf("end %+v, want failed with io.ErrNoProgress", end)
	}
}

type nilTransport struct{}

func (nilTransport) RoundTrip(*http.Request) (*http.Response, error) { return nil, nil }

func TestTransportReturningNothingIsAnError(t *testing.T) {
	_, err := newEngine(t, Config{Transport: nilTransport{}}).Exchange(context.Background(), Request{URL: "http://fake.invalid/"})
	if kindOf(t, err) != KindProtocol || !strings.Contains(err.Error(), "httpengine.nilTransport") {
		t.Fatalf("err = %v, want a protocol error naming the transport type", err)
	}
}
