package replay

import (
	"os"
	"testing"

	"github.com/smith-agent/smith/httpengine/internal/testdns"
)

// TestMain keeps every name lookup on loopback (see testdns).
func TestMain(m *testing.M) {
	if err := testdns.Install(); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
