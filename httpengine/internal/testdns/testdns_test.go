package testdns

import (
	"context"
	"errors"
	"net"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if err := Install(); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func TestLookupFailsOnLoopback(t *testing.T) {
	before := Queries()
	_, err := net.DefaultResolver.LookupHost(context.Background(), "no-such-host.invalid")
	if Queries() == before {
		t.Fatal("the lookup did not reach the loopback server")
	}
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Fatalf("lookup: %v, want a not-found DNS error", err)
	}
}

func TestNXDomainRejectsShortQueries(t *testing.T) {
	if nxdomain([]byte{1, 2, 3}) != nil || nxdomain(append(make([]byte, 12), 5, 'a')) != nil {
		t.Fatal("answered a truncated query")
	}
}

// FuzzNXDomain: any packet is answered with a well-formed header or not at all.
func FuzzNXDomain(f *testing.F) {
	f.Add([]byte("\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x01\x07invalid\x00\x00\x01\x00\x01\x00\x00\x29"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, q []byte) {
		r := nxdomain(q)
		if r == nil {
			return
		}
		if len(r) < 12 || len(r) > len(q) || r[0] != q[0] || r[1] != q[1] || r[3]&0x0f != 3 {
			t.Fatalf("bad answer %x to %x", r, q)
		}
	})
}
