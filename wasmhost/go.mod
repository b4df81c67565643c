module github.com/smith-agent/smith/wasmhost

go 1.26.0

require (
	github.com/tetratelabs/wabin v0.0.0-20230304001439-f6f874872834
	github.com/tetratelabs/wazero v1.12.0
)

require golang.org/x/sys v0.44.0 // indirect
