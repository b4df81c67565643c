package roots

import (
	"crypto/x509"
	"testing"

	"github.com/smith-agent/smith/httpengine/internal/testpki"
)

func TestPoolHoldsBundleAndExtras(t *testing.T) {
	ca := testpki.NewCA(t)
	leaf := ca.Leaf(t, "svc.invalid")
	verify := func(pool *x509.CertPool) error {
		_, err := leaf.Leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "svc.invalid"})
		return err
	}
	bare, err := Pool(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := verify(bare); err == nil {
		t.Fatal("a leaf from a test CA verified against the bundled roots alone")
	}
	withCA, err := Pool([]*x509.Certificate{ca.Cert})
	if err != nil {
		t.Fatal(err)
	}
	if err := verify(withCA); err != nil {
		t.Fatalf("verify with the extra CA: %v", err)
	}
	// The extra CA must not leak into the shared bundle pool.
	again, _ := Pool(nil)
	if err := verify(again); err == nil {
		t.Fatal("an extra root leaked into the shared bundled pool")
	}
}

func TestPoolIsTheMozillaBundle(t *testing.T) {
	pool, err := Pool(nil)
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 Subjects is fine for counting roots in a pool we built.
	if n := len(pool.Subjects()); n < 100 {
		t.Fatalf("bundled pool has %d roots, want the ~117 NSS roots", n)
	}
}
