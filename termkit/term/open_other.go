//go:build !unix

package term

import (
	"errors"
)

type sysState struct{}

func (*sysState) stop(*Terminal)    {}
func (*sysState) release(*Terminal) {}

// Open reports that this platform's console is not supported yet.
func Open(Options) (*Terminal, error) {
	return nil, errors.New("term: the interactive mode needs a Unix terminal for now (Linux, macOS, the BSDs); on this system use a non-interactive mode")
}

// Suspend is not supported on this platform.
func (t *Terminal) Suspend() error { return errors.New("term: suspend needs job control (Unix)") }
