//go:build !linux && !darwin

package sandbox

import (
	"fmt"
	"runtime"
)

// probe reports that there is no sandbox on this platform.
func probe() Info { return Info{Reason: "no sandbox on " + runtime.GOOS} }

// RestrictThread fails for any policy other than Off: there is no sandbox
// on this platform.
func (p Policy) RestrictThread() error {
	if err := p.check(); err != nil || !p.enabled() {
		return err
	}
	return fmt.Errorf("sandbox: no sandbox on %s; use sandbox mode %q", runtime.GOOS, Off)
}
