//go:build !unix

package wasmhost

import "os"

// writable reports why files cannot be created in dir, or nil, by
// creating and removing one.
func writable(dir string) error {
	f, err := os.CreateTemp(dir, ".wasmhost-probe-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}
