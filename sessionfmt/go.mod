module github.com/smith-agent/smith/sessionfmt

go 1.26.0

require (
	github.com/fxamacker/cbor/v2 v2.10.0
	github.com/gofrs/flock v0.13.2
	github.com/klauspost/compress v1.20.4
)

require (
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
