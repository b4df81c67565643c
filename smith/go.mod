module github.com/smith-agent/smith/smith

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/smith-agent/smith/core v0.0.0
	github.com/smith-agent/smith/httpengine v0.0.0
	github.com/smith-agent/smith/sessionfmt v0.0.0
	github.com/smith-agent/smith/termkit v0.0.0
	github.com/smith-agent/smith/wasmhost v0.0.0
	github.com/smith-agent/smith/wit v0.0.0
	github.com/urfave/cli/v3 v3.14.0
)
