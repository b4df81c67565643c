// Package roots builds the certificate pool of bundled Mozilla (NSS) roots
// that every TLS connection of the engine validates against. The operating
// system's pool is never consulted.
package roots

import (
	"crypto/x509"
	"fmt"
	"sync"

	"golang.org/x/crypto/x509roots/fallback/bundle"
)

// bundled parses the bundle once per process (about 1 ms); the pool it
// returns is never modified, callers clone it before adding to it.
var bundled = sync.OnceValues(func() (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	n := 0
	for root := range bundle.Roots() {
		cert, err := x509.ParseCertificate(root.Certificate)
		if err != nil {
			return nil, fmt.Errorf("roots: parse bundled root %d: %w", n, err)
		}
		if root.Constraint != nil {
			pool.AddCertWithConstraint(cert, root.Constraint)
		} else {
			pool.AddCert(cert)
		}
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("roots: the bundled root set is empty; rebuild with a valid golang.org/x/crypto/x509roots/fallback")
	}
	return pool, nil
})

// Pool returns a new pool holding the bundled roots plus extra. It is safe for
// concurrent use; each call returns a pool the caller owns.
func Pool(extra []*x509.Certificate) (*x509.CertPool, error) {
	base, err := bundled()
	if err != nil {
		return nil, err
	}
	pool := base.Clone()
	for _, c := range extra {
		pool.AddCert(c)
	}
	return pool, nil
}
