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
