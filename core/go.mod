module github.com/smith-agent/smith/core

go 1.26.0

require (
	github.com/aymanbagabas/go-udiff v0.4.1
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/calico32/kdl-go v0.16.0
	github.com/gofrs/flock v0.13.2
	github.com/smith-agent/smith/httpengine v0.0.0
	github.com/smith-agent/smith/sessionfmt v0.0.0
	github.com/smith-agent/smith/wasmhost v0.0.0
	golang.org/x/sys v0.50.0
)
