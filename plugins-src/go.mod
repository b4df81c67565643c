module github.com/smith-agent/smith/plugins-src

go 1.26.0

require (
	github.com/smith-agent/smith/core v0.0.0
	github.com/smith-agent/smith/httpengine v0.0.0
	github.com/smith-agent/smith/wasmhost v0.0.0
	github.com/smith-agent/smith/wit v0.0.0
	github.com/tetratelabs/wazero v1.12.0
)
